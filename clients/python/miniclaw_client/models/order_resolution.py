from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.ruling import Ruling






T = TypeVar("T", bound="OrderResolution")



@_attrs_define
class OrderResolution:
    """ 
        Attributes:
            note (str): Why, at most 2,000 characters.
            ruling (Ruling): How the operator resolves a disputed order.
     """

    note: str
    ruling: Ruling





    def to_dict(self) -> dict[str, Any]:
        note = self.note

        ruling = self.ruling.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "note": note,
            "ruling": ruling,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        note = d.pop("note")

        ruling = Ruling(d.pop("ruling"))




        order_resolution = cls(
            note=note,
            ruling=ruling,
        )

        return order_resolution

