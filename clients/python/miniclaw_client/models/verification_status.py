from enum import StrEnum

class VerificationStatus(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    REVOKED = "revoked"
    VERIFIED = "verified"

    def __str__(self) -> str:
        return str(self.value)
