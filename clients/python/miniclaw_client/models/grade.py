from enum import StrEnum

class Grade(StrEnum):
    A = "A"
    B = "B"
    C = "C"
    D = "D"
    S = "S"

    def __str__(self) -> str:
        return str(self.value)
