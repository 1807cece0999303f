from enum import StrEnum

class ExportAgentFormat(StrEnum):
    LETTA = "letta"
    MINICLAW = "miniclaw"

    def __str__(self) -> str:
        return str(self.value)
