from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ProactiveInput")



@_attrs_define
class ProactiveInput:
    """ The owner's settings of the proactive side.

        Attributes:
            daily_max (int): Proactive messages and suggestions per 24 hours, at most (0–10; 0 turns them off).
     """

    daily_max: int





    def to_dict(self) -> dict[str, Any]:
        daily_max = self.daily_max


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "daily_max": daily_max,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        daily_max = d.pop("daily_max")

        proactive_input = cls(
            daily_max=daily_max,
        )

        return proactive_input

