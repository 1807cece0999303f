from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Milestone")



@_attrs_define
class Milestone:
    """ One milestone.

        Attributes:
            at (datetime.datetime):
            chapter (str): The chapter it belongs to: its month, e.g. "November 2026" (UTC).
            key (str):
            kind (str): created, first_conversation, messages, memories, soul_version, first_reflection,
                first_task_done, wallet, skill_installed, skill_published, first_post, identity_registered,
                verified, poc_grade.
            title (str):
     """

    at: datetime.datetime
    chapter: str
    key: str
    kind: str
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        chapter = self.chapter

        key = self.key

        kind = self.kind

        title = self.title


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "at": at,
            "chapter": chapter,
            "key": key,
            "kind": kind,
            "title": title,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))




        chapter = d.pop("chapter")

        key = d.pop("key")

        kind = d.pop("kind")

        title = d.pop("title")

        milestone = cls(
            at=at,
            chapter=chapter,
            key=key,
            kind=kind,
            title=title,
        )


        milestone.additional_properties = d
        return milestone

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
