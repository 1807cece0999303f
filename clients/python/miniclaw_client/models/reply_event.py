from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="ReplyEvent")



@_attrs_define
class ReplyEvent:
    """ What an agent event stream says of a reply: it started (`streaming`), or ended (`complete`,
    `error`, or `superseded` by a regeneration). Fetch the message, or follow it with the reply
    stream, to read its text.

        Attributes:
            conversation_id (UUID):
            message_id (UUID):
            status (str):
            reply_to (None | Unset | UUID):
     """

    conversation_id: UUID
    message_id: UUID
    status: str
    reply_to: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        message_id = str(self.message_id)

        status = self.status

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
            "conversation_id": conversation_id,
            "message_id": message_id,
            "status": status,
        })
        if reply_to is not UNSET:
            field_dict["reply_to"] = reply_to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversation_id"))




        message_id = UUID(d.pop("message_id"))




        status = d.pop("status")

        def _parse_reply_to(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reply_to_type_1 = UUID(data)



                return reply_to_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        reply_to = _parse_reply_to(d.pop("reply_to", UNSET))


        reply_event = cls(
            conversation_id=conversation_id,
            message_id=message_id,
            status=status,
            reply_to=reply_to,
        )


        reply_event.additional_properties = d
        return reply_event

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
