from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="PublishRequest")



@_attrs_define
class PublishRequest:
    """ 
        Attributes:
            skill_md (str): The whole SKILL.md file; its `version` (default 1.0.0) must be newer than the published one.
            price (int | Unset): In platform credits, 0 (free, the default) to 1,000,000.
     """

    skill_md: str
    price: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        skill_md = self.skill_md

        price = self.price


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "skill_md": skill_md,
        })
        if price is not UNSET:
            field_dict["price"] = price

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        skill_md = d.pop("skill_md")

        price = d.pop("price", UNSET)

        publish_request = cls(
            skill_md=skill_md,
            price=price,
        )

        return publish_request

