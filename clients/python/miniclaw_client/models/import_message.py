from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ImportMessage")



@_attrs_define
class ImportMessage:
    """ One message of a transcript: who said it (`role` user or assistant, or a `speaker`'s name),
    what, and when.

        Attributes:
            content (str): 1–5,000 characters.
            created_at (datetime.datetime): When it was said.
            role (None | str | Unset): `user` or `assistant`; give this or `speaker`.
            speaker (None | str | Unset): The speaker's name (1–64 characters), for a conversation between people.
     """

    content: str
    created_at: datetime.datetime
    role: None | str | Unset = UNSET
    speaker: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        content = self.content

        created_at = self.created_at.isoformat()

        role: None | str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        else:
            role = self.role

        speaker: None | str | Unset
        if isinstance(self.speaker, Unset):
            speaker = UNSET
        else:
            speaker = self.speaker


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "content": content,
            "created_at": created_at,
        })
        if role is not UNSET:
            field_dict["role"] = role
        if speaker is not UNSET:
            field_dict["speaker"] = speaker

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content = d.pop("content")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_role(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        role = _parse_role(d.pop("role", UNSET))


        def _parse_speaker(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        speaker = _parse_speaker(d.pop("speaker", UNSET))


        import_message = cls(
            content=content,
            created_at=created_at,
            role=role,
            speaker=speaker,
        )

        return import_message

