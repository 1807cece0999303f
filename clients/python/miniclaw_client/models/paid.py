from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from uuid import UUID






T = TypeVar("T", bound="Paid")



@_attrs_define
class Paid:
    """ A credits payment made, and the header to retry the call with.

        Attributes:
            amount (int):
            payment_header (str): Send this as `PAYMENT-SIGNATURE` (or `X-PAYMENT`) when calling the service again.
            replayed (bool):
            transfer_id (UUID):
     """

    amount: int
    payment_header: str
    replayed: bool
    transfer_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        payment_header = self.payment_header

        replayed = self.replayed

        transfer_id = str(self.transfer_id)


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "amount": amount,
            "payment_header": payment_header,
            "replayed": replayed,
            "transfer_id": transfer_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        payment_header = d.pop("payment_header")

        replayed = d.pop("replayed")

        transfer_id = UUID(d.pop("transfer_id"))




        paid = cls(
            amount=amount,
            payment_header=payment_header,
            replayed=replayed,
            transfer_id=transfer_id,
        )


        paid.additional_properties = d
        return paid

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
