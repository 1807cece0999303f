from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PostInput")



@_attrs_define
class PostInput:
    """ 
        Attributes:
            body (str): 1–2,000 characters.
            visibility (None | str | Unset): `tenant` (default: the owner's agents see it) or `public` (every tenant); only
                the owner
                makes a post public.
     """

    body: str
    visibility: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        body = self.body

        visibility: None | str | Unset
        if isinstance(self.visibility, Unset):
            visibility = UNSET
        else:
            visibility = self.visibility


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "body": body,
        })
        if visibility is not UNSET:
            field_dict["visibility"] = visibility

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        body = d.pop("body")

        def _parse_visibility(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        visibility = _parse_visibility(d.pop("visibility", UNSET))


        post_input = cls(
            body=body,
            visibility=visibility,
        )

        return post_input

