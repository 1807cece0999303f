from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.message_out import MessageOut





T = TypeVar("T", bound="ConversationOfPerson")



@_attrs_define
class ConversationOfPerson:
    """ One of the end user's conversations with every message.

        Attributes:
            channel (str):
            created_at (datetime.datetime):
            deleted (bool): Deleted by its owner (and waiting for the purge).
            id (UUID):
            messages (list[MessageOut]):
            title (str):
     """

    channel: str
    created_at: datetime.datetime
    deleted: bool
    id: UUID
    messages: list[MessageOut]
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.message_out import MessageOut # noqa: PLC0415
        channel = self.channel

        created_at = self.created_at.isoformat()

        deleted = self.deleted

        id = str(self.id)

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)



        title = self.title


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "channel": channel,
            "created_at": created_at,
            "deleted": deleted,
            "id": id,
            "messages": messages,
            "title": title,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.message_out import MessageOut # noqa: PLC0415
        d = dict(src_dict)
        channel = d.pop("channel")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        deleted = d.pop("deleted")

        id = UUID(d.pop("id"))




        messages = []
        _messages = d.pop("messages")
        for messages_item_data in (_messages):
            messages_item = MessageOut.from_dict(messages_item_data)



            messages.append(messages_item)


        title = d.pop("title")

        conversation_of_person = cls(
            channel=channel,
            created_at=created_at,
            deleted=deleted,
            id=id,
            messages=messages,
            title=title,
        )


        conversation_of_person.additional_properties = d
        return conversation_of_person

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
