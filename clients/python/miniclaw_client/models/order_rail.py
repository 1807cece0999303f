from enum import StrEnum

class OrderRail(StrEnum):
    CREDITS = "credits"
    ESCROW = "escrow"

    def __str__(self) -> str:
        return str(self.value)
