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
  from ..models.thread_message_headers import ThreadMessageHeaders





T = TypeVar("T", bound="ThreadMessage")



@_attrs_define
class ThreadMessage:
    """ One email of a thread.

        Attributes:
            author (str): `owner`, `agent` or `sender`.
            body (str):
            created_at (datetime.datetime):
            direction (str): `outbound` or `inbound`.
            from_address (str):
            headers (ThreadMessageHeaders):
            id (UUID):
            message_id (str): The Message-ID, without angle brackets.
            references (list[str]):
            status (str): outbound: `queued`, `sent`, `failed`; inbound: `received`, `auto_replied`, `escalated`, `ignored`.
            subject (str):
            to_address (str):
            truncated (bool): The stored body was cut to its maximum.
            in_reply_to (None | str | Unset):
     """

    author: str
    body: str
    created_at: datetime.datetime
    direction: str
    from_address: str
    headers: ThreadMessageHeaders
    id: UUID
    message_id: str
    references: list[str]
    status: str
    subject: str
    to_address: str
    truncated: bool
    in_reply_to: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.thread_message_headers import ThreadMessageHeaders # noqa: PLC0415
        author = self.author

        body = self.body

        created_at = self.created_at.isoformat()

        direction = self.direction

        from_address = self.from_address

        headers = self.headers.to_dict()

        id = str(self.id)

        message_id = self.message_id

        references = self.references



        status = self.status

        subject = self.subject

        to_address = self.to_address

        truncated = self.truncated

        in_reply_to: None | str | Unset
        if isinstance(self.in_reply_to, Unset):
            in_reply_to = UNSET
        else:
            in_reply_to = self.in_reply_to


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "author": author,
            "body": body,
            "created_at": created_at,
            "direction": direction,
            "from_address": from_address,
            "headers": headers,
            "id": id,
            "message_id": message_id,
            "references": references,
            "status": status,
            "subject": subject,
            "to_address": to_address,
            "truncated": truncated,
        })
        if in_reply_to is not UNSET:
            field_dict["in_reply_to"] = in_reply_to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.thread_message_headers import ThreadMessageHeaders # noqa: PLC0415
        d = dict(src_dict)
        author = d.pop("author")

        body = d.pop("body")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        direction = d.pop("direction")

        from_address = d.pop("from_address")

        headers = ThreadMessageHeaders.from_dict(d.pop("headers"))




        id = UUID(d.pop("id"))




        message_id = d.pop("message_id")

        references = cast(list[str], d.pop("references"))


        status = d.pop("status")

        subject = d.pop("subject")

        to_address = d.pop("to_address")

        truncated = d.pop("truncated")

        def _parse_in_reply_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        in_reply_to = _parse_in_reply_to(d.pop("in_reply_to", UNSET))


        thread_message = cls(
            author=author,
            body=body,
            created_at=created_at,
            direction=direction,
            from_address=from_address,
            headers=headers,
            id=id,
            message_id=message_id,
            references=references,
            status=status,
            subject=subject,
            to_address=to_address,
            truncated=truncated,
            in_reply_to=in_reply_to,
        )


        thread_message.additional_properties = d
        return thread_message

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
