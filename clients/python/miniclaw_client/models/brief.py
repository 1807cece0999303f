from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Brief")



@_attrs_define
class Brief:
    """ A brief for a new agent.

        Attributes:
            brief (str): What the agent is for, 1–2,000 characters.
     """

    brief: str





    def to_dict(self) -> dict[str, Any]:
        brief = self.brief


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "brief": brief,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        brief = d.pop("brief")

        brief = cls(
            brief=brief,
        )

        return brief

