from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="InboundEmail")



@_attrs_define
class InboundEmail:
    """ An inbound email, whatever provider delivered it.

        Attributes:
            from_ (str): The `From` value (`Name <address>` or an address).
            in_reply_to (None | str | Unset): `In-Reply-To` (one id, or several space-separated).
            message_id (None | str | Unset):
            references (None | str | Unset): `References` (space-separated ids).
            subject (str | Unset):
            text (str | Unset): The plain-text body.
            to (list[str] | Unset):
     """

    from_: str
    in_reply_to: None | str | Unset = UNSET
    message_id: None | str | Unset = UNSET
    references: None | str | Unset = UNSET
    subject: str | Unset = UNSET
    text: str | Unset = UNSET
    to: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        in_reply_to: None | str | Unset
        if isinstance(self.in_reply_to, Unset):
            in_reply_to = UNSET
        else:
            in_reply_to = self.in_reply_to

        message_id: None | str | Unset
        if isinstance(self.message_id, Unset):
            message_id = UNSET
        else:
            message_id = self.message_id

        references: None | str | Unset
        if isinstance(self.references, Unset):
            references = UNSET
        else:
            references = self.references

        subject = self.subject

        text = self.text

        to: list[str] | Unset = UNSET
        if not isinstance(self.to, Unset):
            to = self.to




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "from": from_,
        })
        if in_reply_to is not UNSET:
            field_dict["in_reply_to"] = in_reply_to
        if message_id is not UNSET:
            field_dict["message_id"] = message_id
        if references is not UNSET:
            field_dict["references"] = references
        if subject is not UNSET:
            field_dict["subject"] = subject
        if text is not UNSET:
            field_dict["text"] = text
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_ = d.pop("from")

        def _parse_in_reply_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        in_reply_to = _parse_in_reply_to(d.pop("in_reply_to", UNSET))


        def _parse_message_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message_id = _parse_message_id(d.pop("message_id", UNSET))


        def _parse_references(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        references = _parse_references(d.pop("references", UNSET))


        subject = d.pop("subject", UNSET)

        text = d.pop("text", UNSET)

        to = cast(list[str], d.pop("to", UNSET))


        inbound_email = cls(
            from_=from_,
            in_reply_to=in_reply_to,
            message_id=message_id,
            references=references,
            subject=subject,
            text=text,
            to=to,
        )


        inbound_email.additional_properties = d
        return inbound_email

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
