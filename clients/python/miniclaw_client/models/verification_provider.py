from enum import StrEnum

class VerificationProvider(StrEnum):
    SELF_XYZ = "self_xyz"
    TALENT_PROTOCOL = "talent_protocol"

    def __str__(self) -> str:
        return str(self.value)
