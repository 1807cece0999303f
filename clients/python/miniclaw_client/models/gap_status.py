from enum import StrEnum

class GapStatus(StrEnum):
    CONFIRMED = "confirmed"
    DISMISSED = "dismissed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
