from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Moderation")



@_attrs_define
class Moderation:
    """ 
        Attributes:
            hidden (bool | None | Unset): Hide (true) or show again (false).
            visibility (None | str | Unset): `tenant` or `public`.
     """

    hidden: bool | None | Unset = UNSET
    visibility: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        hidden: bool | None | Unset
        if isinstance(self.hidden, Unset):
            hidden = UNSET
        else:
            hidden = self.hidden

        visibility: None | str | Unset
        if isinstance(self.visibility, Unset):
            visibility = UNSET
        else:
            visibility = self.visibility


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if hidden is not UNSET:
            field_dict["hidden"] = hidden
        if visibility is not UNSET:
            field_dict["visibility"] = visibility

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_hidden(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        hidden = _parse_hidden(d.pop("hidden", UNSET))


        def _parse_visibility(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        visibility = _parse_visibility(d.pop("visibility", UNSET))


        moderation = cls(
            hidden=hidden,
            visibility=visibility,
        )

        return moderation

