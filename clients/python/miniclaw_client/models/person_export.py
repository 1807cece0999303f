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
  from ..models.activity_entry import ActivityEntry
  from ..models.conversation_of_person import ConversationOfPerson
  from ..models.memory_of_person import MemoryOfPerson





T = TypeVar("T", bound="PersonExport")



@_attrs_define
class PersonExport:
    """ Everything the agent keeps about one end user.

        Attributes:
            activity (list[ActivityEntry]):
            agent_id (UUID):
            conversations (list[ConversationOfPerson]):
            end_user (str):
            exported_at (datetime.datetime):
            format_ (str): `miniclaw.end_user`.
            memories (list[MemoryOfPerson]):
     """

    activity: list[ActivityEntry]
    agent_id: UUID
    conversations: list[ConversationOfPerson]
    end_user: str
    exported_at: datetime.datetime
    format_: str
    memories: list[MemoryOfPerson]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_entry import ActivityEntry # noqa: PLC0415
        from ..models.conversation_of_person import ConversationOfPerson # noqa: PLC0415
        from ..models.memory_of_person import MemoryOfPerson # noqa: PLC0415
        activity = []
        for activity_item_data in self.activity:
            activity_item = activity_item_data.to_dict()
            activity.append(activity_item)



        agent_id = str(self.agent_id)

        conversations = []
        for conversations_item_data in self.conversations:
            conversations_item = conversations_item_data.to_dict()
            conversations.append(conversations_item)



        end_user = self.end_user

        exported_at = self.exported_at.isoformat()

        format_ = self.format_

        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "activity": activity,
            "agent_id": agent_id,
            "conversations": conversations,
            "end_user": end_user,
            "exported_at": exported_at,
            "format": format_,
            "memories": memories,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_entry import ActivityEntry # noqa: PLC0415
        from ..models.conversation_of_person import ConversationOfPerson # noqa: PLC0415
        from ..models.memory_of_person import MemoryOfPerson # noqa: PLC0415
        d = dict(src_dict)
        activity = []
        _activity = d.pop("activity")
        for activity_item_data in (_activity):
            activity_item = ActivityEntry.from_dict(activity_item_data)



            activity.append(activity_item)


        agent_id = UUID(d.pop("agent_id"))




        conversations = []
        _conversations = d.pop("conversations")
        for conversations_item_data in (_conversations):
            conversations_item = ConversationOfPerson.from_dict(conversations_item_data)



            conversations.append(conversations_item)


        end_user = d.pop("end_user")

        exported_at = datetime.datetime.fromisoformat(d.pop("exported_at"))




        format_ = d.pop("format")

        memories = []
        _memories = d.pop("memories")
        for memories_item_data in (_memories):
            memories_item = MemoryOfPerson.from_dict(memories_item_data)



            memories.append(memories_item)


        person_export = cls(
            activity=activity,
            agent_id=agent_id,
            conversations=conversations,
            end_user=end_user,
            exported_at=exported_at,
            format_=format_,
            memories=memories,
        )


        person_export.additional_properties = d
        return person_export

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
