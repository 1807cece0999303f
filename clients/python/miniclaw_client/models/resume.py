from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Resume")



@_attrs_define
class Resume:
    """ Where to pick up.

        Attributes:
            at (datetime.datetime):
            conversation_id (UUID):
            message_id (UUID):
            said (str): The user's last words there (at most 200 characters).
     """

    at: datetime.datetime
    conversation_id: UUID
    message_id: UUID
    said: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        conversation_id = str(self.conversation_id)

        message_id = str(self.message_id)

        said = self.said


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "at": at,
            "conversation_id": conversation_id,
            "message_id": message_id,
            "said": said,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))




        conversation_id = UUID(d.pop("conversation_id"))




        message_id = UUID(d.pop("message_id"))




        said = d.pop("said")

        resume = cls(
            at=at,
            conversation_id=conversation_id,
            message_id=message_id,
            said=said,
        )


        resume.additional_properties = d
        return resume

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
