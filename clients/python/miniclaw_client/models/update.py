from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_message_type_0 import UpdateMessageType0





T = TypeVar("T", bound="Update")



@_attrs_define
class Update:
    """ A Telegram update (the fields miniclaw reads).

        Attributes:
            update_id (int):
            message (None | Unset | UpdateMessageType0):
     """

    update_id: int
    message: None | Unset | UpdateMessageType0 = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_message_type_0 import UpdateMessageType0 # noqa: PLC0415
        update_id = self.update_id

        message: dict[str, Any] | None | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        elif isinstance(self.message, UpdateMessageType0):
            message = self.message.to_dict()
        else:
            message = self.message


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "update_id": update_id,
        })
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_message_type_0 import UpdateMessageType0 # noqa: PLC0415
        d = dict(src_dict)
        update_id = d.pop("update_id")

        def _parse_message(data: object) -> None | Unset | UpdateMessageType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                message_type_0 = UpdateMessageType0.from_dict(data)



                return message_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateMessageType0, data)

        message = _parse_message(d.pop("message", UNSET))


        update = cls(
            update_id=update_id,
            message=message,
        )


        update.additional_properties = d
        return update

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
