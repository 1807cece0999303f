from enum import StrEnum

class TargetKind(StrEnum):
    AGENT = "agent"
    SKILL = "skill"

    def __str__(self) -> str:
        return str(self.value)
