from enum import StrEnum

class Rail(StrEnum):
    CREDITS = "credits"
    NATIVE = "native"
    TOKEN = "token"

    def __str__(self) -> str:
        return str(self.value)
