from enum import StrEnum

class DayPart(StrEnum):
    AFTERNOON = "afternoon"
    EVENING = "evening"
    MORNING = "morning"
    NIGHT = "night"

    def __str__(self) -> str:
        return str(self.value)
