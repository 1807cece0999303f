from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Session")



@_attrs_define
class Session:
    """ One session in the ledger (003 §5.3).

        Attributes:
            conversation_id (UUID):
            ended_at (datetime.datetime):
            id (UUID):
            messages (int):
            started_at (datetime.datetime):
            summary (str):
     """

    conversation_id: UUID
    ended_at: datetime.datetime
    id: UUID
    messages: int
    started_at: datetime.datetime
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        ended_at = self.ended_at.isoformat()

        id = str(self.id)

        messages = self.messages

        started_at = self.started_at.isoformat()

        summary = self.summary


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "conversation_id": conversation_id,
            "ended_at": ended_at,
            "id": id,
            "messages": messages,
            "started_at": started_at,
            "summary": summary,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversation_id"))




        ended_at = datetime.datetime.fromisoformat(d.pop("ended_at"))




        id = UUID(d.pop("id"))




        messages = d.pop("messages")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))




        summary = d.pop("summary")

        session = cls(
            conversation_id=conversation_id,
            ended_at=ended_at,
            id=id,
            messages=messages,
            started_at=started_at,
            summary=summary,
        )


        session.additional_properties = d
        return session

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
