from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TipDecision")



@_attrs_define
class TipDecision:
    """ 
        Attributes:
            confirm (bool): true: make the tip; false: cancel it.
     """

    confirm: bool





    def to_dict(self) -> dict[str, Any]:
        confirm = self.confirm


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "confirm": confirm,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        confirm = d.pop("confirm")

        tip_decision = cls(
            confirm=confirm,
        )

        return tip_decision

