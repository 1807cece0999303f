from enum import StrEnum

class Ruling(StrEnum):
    REFUND = "refund"
    SETTLE = "settle"

    def __str__(self) -> str:
        return str(self.value)
