from enum import StrEnum

class Phase(StrEnum):
    AGENT = "agent"
    MIRROR = "mirror"
    OPINION = "opinion"

    def __str__(self) -> str:
        return str(self.value)
