from enum import StrEnum

class MemorySource(StrEnum):
    API = "api"
    CONVERSATION = "conversation"
    DERIVED = "derived"
    FUSION = "fusion"
    OWNER = "owner"
    REFLECTION = "reflection"
    UPLOADED = "uploaded"
    URL = "url"

    def __str__(self) -> str:
        return str(self.value)
