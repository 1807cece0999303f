from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="PortableMessage")



@_attrs_define
class PortableMessage:
    """ One message, in conversation order.

        Attributes:
            content (str):
            created_at (datetime.datetime):
            role (str): `user` or `assistant`.
            channel (None | str | Unset): The channel it came by (default: the conversation's).
     """

    content: str
    created_at: datetime.datetime
    role: str
    channel: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        content = self.content

        created_at = self.created_at.isoformat()

        role = self.role

        channel: None | str | Unset
        if isinstance(self.channel, Unset):
            channel = UNSET
        else:
            channel = self.channel


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "content": content,
            "created_at": created_at,
            "role": role,
        })
        if channel is not UNSET:
            field_dict["channel"] = channel

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        role = d.pop("role")

        def _parse_channel(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        channel = _parse_channel(d.pop("channel", UNSET))


        portable_message = cls(
            content=content,
            created_at=created_at,
            role=role,
            channel=channel,
        )

        return portable_message

