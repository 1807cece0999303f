from enum import StrEnum

class Outcome(StrEnum):
    SLASHED = "slashed"
    VALIDATED = "validated"

    def __str__(self) -> str:
        return str(self.value)
