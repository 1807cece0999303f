from enum import StrEnum

class Better(StrEnum):
    HIGHER = "higher"
    LOWER = "lower"
    NEITHER = "neither"

    def __str__(self) -> str:
        return str(self.value)
