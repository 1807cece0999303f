from enum import StrEnum

class Tier(StrEnum):
    BREATH = "breath"
    PULSE = "pulse"
    SLEEP = "sleep"

    def __str__(self) -> str:
        return str(self.value)
