from enum import StrEnum

class MemoryStatus(StrEnum):
    ACTIVE = "active"
    ARCHIVED = "archived"
    DEPRECATED = "deprecated"
    DORMANT = "dormant"

    def __str__(self) -> str:
        return str(self.value)
