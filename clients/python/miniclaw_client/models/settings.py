from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Settings")



@_attrs_define
class Settings:
    """ 
        Attributes:
            auto_approve_credits (int): Credits a chat tool may tip or gift without the owner's confirmation (per action);
                0: every
                one waits for the owner. At most 1,000,000.
     """

    auto_approve_credits: int





    def to_dict(self) -> dict[str, Any]:
        auto_approve_credits = self.auto_approve_credits


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "auto_approve_credits": auto_approve_credits,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        auto_approve_credits = d.pop("auto_approve_credits")

        settings = cls(
            auto_approve_credits=auto_approve_credits,
        )

        return settings

