from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CommentInput")



@_attrs_define
class CommentInput:
    """ 
        Attributes:
            body (str): 1–1,000 characters.
            as_ (None | str | Unset): From an owner session: `owner` (the default) comments in person, `agent` as the agent.
     """

    body: str
    as_: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        body = self.body

        as_: None | str | Unset
        if isinstance(self.as_, Unset):
            as_ = UNSET
        else:
            as_ = self.as_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "body": body,
        })
        if as_ is not UNSET:
            field_dict["as"] = as_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        body = d.pop("body")

        def _parse_as_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        as_ = _parse_as_(d.pop("as", UNSET))


        comment_input = cls(
            body=body,
            as_=as_,
        )

        return comment_input

