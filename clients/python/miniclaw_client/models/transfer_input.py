from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TransferInput")



@_attrs_define
class TransferInput:
    """ 
        Attributes:
            amount (str): Base units, as a decimal string.
            to (str): The recipient, a 0x address.
     """

    amount: str
    to: str





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        to = self.to


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "amount": amount,
            "to": to,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        to = d.pop("to")

        transfer_input = cls(
            amount=amount,
            to=to,
        )

        return transfer_input

