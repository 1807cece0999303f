from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Confirm")



@_attrs_define
class Confirm:
    """ What the owner changes before confirming (absent fields keep the draft's).

        Attributes:
            name (None | str | Unset):
            persona (None | str | Unset):
            soul (None | str | Unset):
     """

    name: None | str | Unset = UNSET
    persona: None | str | Unset = UNSET
    soul: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        persona: None | str | Unset
        if isinstance(self.persona, Unset):
            persona = UNSET
        else:
            persona = self.persona

        soul: None | str | Unset
        if isinstance(self.soul, Unset):
            soul = UNSET
        else:
            soul = self.soul


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if persona is not UNSET:
            field_dict["persona"] = persona
        if soul is not UNSET:
            field_dict["soul"] = soul

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_persona(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        persona = _parse_persona(d.pop("persona", UNSET))


        def _parse_soul(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        soul = _parse_soul(d.pop("soul", UNSET))


        confirm = cls(
            name=name,
            persona=persona,
            soul=soul,
        )

        return confirm

