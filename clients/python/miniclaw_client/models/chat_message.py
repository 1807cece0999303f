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

if TYPE_CHECKING:
  from ..models.chat_message_meta import ChatMessageMeta





T = TypeVar("T", bound="ChatMessage")



@_attrs_define
class ChatMessage:
    """ One message of a conversation.

        Attributes:
            channel (str):
            content (str):
            conversation_id (UUID):
            created_at (datetime.datetime):
            id (UUID):
            meta (ChatMessageMeta): For a reply: intent, triage_skipped, memories_used, engine, model, usage, ...
            position (int):
            role (str): `user` or `assistant`.
            status (str): user: `pending`, `complete`, `error`; assistant: `streaming`, `complete`, `error`, `superseded`.
            updated_at (datetime.datetime):
            error (None | str | Unset):
            reply_to (None | Unset | UUID): For a reply: the user message it answers.
     """

    channel: str
    content: str
    conversation_id: UUID
    created_at: datetime.datetime
    id: UUID
    meta: ChatMessageMeta
    position: int
    role: str
    status: str
    updated_at: datetime.datetime
    error: None | str | Unset = UNSET
    reply_to: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.chat_message_meta import ChatMessageMeta # noqa: PLC0415
        channel = self.channel

        content = self.content

        conversation_id = str(self.conversation_id)

        created_at = self.created_at.isoformat()

        id = str(self.id)

        meta = self.meta.to_dict()

        position = self.position

        role = self.role

        status = self.status

        updated_at = self.updated_at.isoformat()

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        reply_to: None | str | Unset
        if isinstance(self.reply_to, Unset):
            reply_to = UNSET
        elif isinstance(self.reply_to, UUID):
            reply_to = str(self.reply_to)
        else:
            reply_to = self.reply_to


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "channel": channel,
            "content": content,
            "conversation_id": conversation_id,
            "created_at": created_at,
            "id": id,
            "meta": meta,
            "position": position,
            "role": role,
            "status": status,
            "updated_at": updated_at,
        })
        if error is not UNSET:
            field_dict["error"] = error
        if reply_to is not UNSET:
            field_dict["reply_to"] = reply_to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chat_message_meta import ChatMessageMeta # noqa: PLC0415
        d = dict(src_dict)
        channel = d.pop("channel")

        content = d.pop("content")

        conversation_id = UUID(d.pop("conversation_id"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        meta = ChatMessageMeta.from_dict(d.pop("meta"))




        position = d.pop("position")

        role = d.pop("role")

        status = d.pop("status")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_reply_to(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reply_to_type_0 = UUID(data)



                return reply_to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        reply_to = _parse_reply_to(d.pop("reply_to", UNSET))


        chat_message = cls(
            channel=channel,
            content=content,
            conversation_id=conversation_id,
            created_at=created_at,
            id=id,
            meta=meta,
            position=position,
            role=role,
            status=status,
            updated_at=updated_at,
            error=error,
            reply_to=reply_to,
        )


        chat_message.additional_properties = d
        return chat_message

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
