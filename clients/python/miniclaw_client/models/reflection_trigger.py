from enum import StrEnum

class ReflectionTrigger(StrEnum):
    ADMIN = "admin"
    API_KEY = "api_key"
    OWNER = "owner"
    SCHEDULE = "schedule"

    def __str__(self) -> str:
        return str(self.value)
