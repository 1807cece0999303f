from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Conversation")



@_attrs_define
class Conversation:
    """ A conversation of one agent.

        Attributes:
            agent_id (UUID):
            channel (str):
            created_at (datetime.datetime):
            id (UUID):
            message_count (int):
            title (str):
            updated_at (datetime.datetime):
            end_user (None | str | Unset): The miniapp end user it was started for (`X-Miniclaw-User`, the OpenAI `user`, or
                the
                key's binding); `null` for the owner's own and for requests that named none.
     """

    agent_id: UUID
    channel: str
    created_at: datetime.datetime
    id: UUID
    message_count: int
    title: str
    updated_at: datetime.datetime
    end_user: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        channel = self.channel

        created_at = self.created_at.isoformat()

        id = str(self.id)

        message_count = self.message_count

        title = self.title

        updated_at = self.updated_at.isoformat()

        end_user: None | str | Unset
        if isinstance(self.end_user, Unset):
            end_user = UNSET
        else:
            end_user = self.end_user


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "channel": channel,
            "created_at": created_at,
            "id": id,
            "message_count": message_count,
            "title": title,
            "updated_at": updated_at,
        })
        if end_user is not UNSET:
            field_dict["end_user"] = end_user

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        channel = d.pop("channel")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        message_count = d.pop("message_count")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_end_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_user = _parse_end_user(d.pop("end_user", UNSET))


        conversation = cls(
            agent_id=agent_id,
            channel=channel,
            created_at=created_at,
            id=id,
            message_count=message_count,
            title=title,
            updated_at=updated_at,
            end_user=end_user,
        )


        conversation.additional_properties = d
        return conversation

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
