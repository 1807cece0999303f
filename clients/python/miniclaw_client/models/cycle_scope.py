from enum import StrEnum

class CycleScope(StrEnum):
    AGENT = "agent"
    PLATFORM = "platform"

    def __str__(self) -> str:
        return str(self.value)
