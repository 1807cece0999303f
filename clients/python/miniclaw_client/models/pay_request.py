from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PayRequest")



@_attrs_define
class PayRequest:
    """ 
        Attributes:
            nonce (str): The `extra.nonce` of a `miniclaw:credits` requirement.
     """

    nonce: str





    def to_dict(self) -> dict[str, Any]:
        nonce = self.nonce


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "nonce": nonce,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        nonce = d.pop("nonce")

        pay_request = cls(
            nonce=nonce,
        )

        return pay_request

