from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="ChatInput")



@_attrs_define
class ChatInput:
    """ 
        Attributes:
            message (str): 1–2,000 characters.
            conversation_id (None | Unset | UUID):
     """

    message: str
    conversation_id: None | Unset | UUID = UNSET





    def to_dict(self) -> dict[str, Any]:
        message = self.message

        conversation_id: None | str | Unset
        if isinstance(self.conversation_id, Unset):
            conversation_id = UNSET
        elif isinstance(self.conversation_id, UUID):
            conversation_id = str(self.conversation_id)
        else:
            conversation_id = self.conversation_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "message": message,
        })
        if conversation_id is not UNSET:
            field_dict["conversation_id"] = conversation_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        def _parse_conversation_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                conversation_id_type_1 = UUID(data)



                return conversation_id_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        conversation_id = _parse_conversation_id(d.pop("conversation_id", UNSET))


        chat_input = cls(
            message=message,
            conversation_id=conversation_id,
        )

        return chat_input

