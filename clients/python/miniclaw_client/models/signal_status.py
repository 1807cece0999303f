from enum import StrEnum

class SignalStatus(StrEnum):
    MEASURED = "measured"
    NOT_AVAILABLE = "not available"

    def __str__(self) -> str:
        return str(self.value)
