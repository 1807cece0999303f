from enum import StrEnum

class Asset(StrEnum):
    CREDITS = "credits"
    TOKEN = "token"

    def __str__(self) -> str:
        return str(self.value)
