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
  from ..models.notification_channels import NotificationChannels





T = TypeVar("T", bound="Notification")



@_attrs_define
class Notification:
    """ One notification as the owner sees it.

        Attributes:
            body (str):
            channels (NotificationChannels): How each channel took it (`email`, `telegram`).
            created_at (datetime.datetime):
            id (UUID):
            kind (str):
            status (str): `queued` (waiting for its delivery or the next digest) or `sent`.
            title (str):
            urgent (bool):
            digest_id (None | Unset | UUID): The digest that carried it, when it went out in one.
            read_at (datetime.datetime | None | Unset):
            sent_at (datetime.datetime | None | Unset):
     """

    body: str
    channels: NotificationChannels
    created_at: datetime.datetime
    id: UUID
    kind: str
    status: str
    title: str
    urgent: bool
    digest_id: None | Unset | UUID = UNSET
    read_at: datetime.datetime | None | Unset = UNSET
    sent_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.notification_channels import NotificationChannels # noqa: PLC0415
        body = self.body

        channels = self.channels.to_dict()

        created_at = self.created_at.isoformat()

        id = str(self.id)

        kind = self.kind

        status = self.status

        title = self.title

        urgent = self.urgent

        digest_id: None | str | Unset
        if isinstance(self.digest_id, Unset):
            digest_id = UNSET
        elif isinstance(self.digest_id, UUID):
            digest_id = str(self.digest_id)
        else:
            digest_id = self.digest_id

        read_at: None | str | Unset
        if isinstance(self.read_at, Unset):
            read_at = UNSET
        elif isinstance(self.read_at, datetime.datetime):
            read_at = self.read_at.isoformat()
        else:
            read_at = self.read_at

        sent_at: None | str | Unset
        if isinstance(self.sent_at, Unset):
            sent_at = UNSET
        elif isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "body": body,
            "channels": channels,
            "created_at": created_at,
            "id": id,
            "kind": kind,
            "status": status,
            "title": title,
            "urgent": urgent,
        })
        if digest_id is not UNSET:
            field_dict["digest_id"] = digest_id
        if read_at is not UNSET:
            field_dict["read_at"] = read_at
        if sent_at is not UNSET:
            field_dict["sent_at"] = sent_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.notification_channels import NotificationChannels # noqa: PLC0415
        d = dict(src_dict)
        body = d.pop("body")

        channels = NotificationChannels.from_dict(d.pop("channels"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        kind = d.pop("kind")

        status = d.pop("status")

        title = d.pop("title")

        urgent = d.pop("urgent")

        def _parse_digest_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                digest_id_type_0 = UUID(data)



                return digest_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        digest_id = _parse_digest_id(d.pop("digest_id", UNSET))


        def _parse_read_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                read_at_type_0 = datetime.datetime.fromisoformat(data)



                return read_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        read_at = _parse_read_at(d.pop("read_at", UNSET))


        def _parse_sent_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)



                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        sent_at = _parse_sent_at(d.pop("sent_at", UNSET))


        notification = cls(
            body=body,
            channels=channels,
            created_at=created_at,
            id=id,
            kind=kind,
            status=status,
            title=title,
            urgent=urgent,
            digest_id=digest_id,
            read_at=read_at,
            sent_at=sent_at,
        )


        notification.additional_properties = d
        return notification

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
