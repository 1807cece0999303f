from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SendRequest")



@_attrs_define
class SendRequest:
    """ A send request.

        Attributes:
            to (str): The recipient, a 0x address.
            value_wei (str): The amount in wei, as a decimal string (e.g. `"10000000000000000"` for 0.01 ETH).
     """

    to: str
    value_wei: str





    def to_dict(self) -> dict[str, Any]:
        to = self.to

        value_wei = self.value_wei


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "to": to,
            "value_wei": value_wei,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        to = d.pop("to")

        value_wei = d.pop("value_wei")

        send_request = cls(
            to=to,
            value_wei=value_wei,
        )

        return send_request

