from enum import StrEnum

class Action(StrEnum):
    ACCEPT = "accept"
    CANCEL = "cancel"
    DECLINE = "decline"
    DELIVER = "deliver"
    DISPUTE = "dispute"
    REFUND = "refund"
    SETTLE = "settle"

    def __str__(self) -> str:
        return str(self.value)
