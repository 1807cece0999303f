from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.portable_message import PortableMessage





T = TypeVar("T", bound="PortableConversation")



@_attrs_define
class PortableConversation:
    """ One conversation.

        Attributes:
            channel (str): web, api, openai, telegram, email, mcp or a2a.
            created_at (datetime.datetime):
            messages (list[PortableMessage]):
            title (str):
            updated_at (datetime.datetime):
            end_user (None | str | Unset): The miniapp's end user it was with, if any.
            owner_private (bool | Unset): Only the owner sees it.
     """

    channel: str
    created_at: datetime.datetime
    messages: list[PortableMessage]
    title: str
    updated_at: datetime.datetime
    end_user: None | str | Unset = UNSET
    owner_private: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.portable_message import PortableMessage # noqa: PLC0415
        channel = self.channel

        created_at = self.created_at.isoformat()

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)



        title = self.title

        updated_at = self.updated_at.isoformat()

        end_user: None | str | Unset
        if isinstance(self.end_user, Unset):
            end_user = UNSET
        else:
            end_user = self.end_user

        owner_private = self.owner_private


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "channel": channel,
            "created_at": created_at,
            "messages": messages,
            "title": title,
            "updated_at": updated_at,
        })
        if end_user is not UNSET:
            field_dict["end_user"] = end_user
        if owner_private is not UNSET:
            field_dict["owner_private"] = owner_private

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portable_message import PortableMessage # noqa: PLC0415
        d = dict(src_dict)
        channel = d.pop("channel")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        messages = []
        _messages = d.pop("messages")
        for messages_item_data in (_messages):
            messages_item = PortableMessage.from_dict(messages_item_data)



            messages.append(messages_item)


        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_end_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_user = _parse_end_user(d.pop("end_user", UNSET))


        owner_private = d.pop("owner_private", UNSET)

        portable_conversation = cls(
            channel=channel,
            created_at=created_at,
            messages=messages,
            title=title,
            updated_at=updated_at,
            end_user=end_user,
            owner_private=owner_private,
        )

        return portable_conversation

