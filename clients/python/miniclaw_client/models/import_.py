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






T = TypeVar("T", bound="Import")



@_attrs_define
class Import:
    """ An import and how far it got.

        Attributes:
            agent_id (UUID):
            created (int): Memories it created, and known ones it met again (their mention count went up).
            created_at (datetime.datetime):
            first_at (datetime.datetime): The newest and oldest message times.
            id (UUID):
            last_at (datetime.datetime):
            messages (int): Messages in the transcript, and how many extraction has read.
            processed (int):
            reinforced (int):
            status (str): `queued`, `running`, `done` or `failed`.
            error (None | str | Unset): Why the last step failed (it is retried; `failed` once the retries are used up).
            finished_at (datetime.datetime | None | Unset):
     """

    agent_id: UUID
    created: int
    created_at: datetime.datetime
    first_at: datetime.datetime
    id: UUID
    last_at: datetime.datetime
    messages: int
    processed: int
    reinforced: int
    status: str
    error: None | str | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        created = self.created

        created_at = self.created_at.isoformat()

        first_at = self.first_at.isoformat()

        id = str(self.id)

        last_at = self.last_at.isoformat()

        messages = self.messages

        processed = self.processed

        reinforced = self.reinforced

        status = self.status

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "created": created,
            "created_at": created_at,
            "first_at": first_at,
            "id": id,
            "last_at": last_at,
            "messages": messages,
            "processed": processed,
            "reinforced": reinforced,
            "status": status,
        })
        if error is not UNSET:
            field_dict["error"] = error
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        created = d.pop("created")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        first_at = datetime.datetime.fromisoformat(d.pop("first_at"))




        id = UUID(d.pop("id"))




        last_at = datetime.datetime.fromisoformat(d.pop("last_at"))




        messages = d.pop("messages")

        processed = d.pop("processed")

        reinforced = d.pop("reinforced")

        status = d.pop("status")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)



                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))


        import_ = cls(
            agent_id=agent_id,
            created=created,
            created_at=created_at,
            first_at=first_at,
            id=id,
            last_at=last_at,
            messages=messages,
            processed=processed,
            reinforced=reinforced,
            status=status,
            error=error,
            finished_at=finished_at,
        )


        import_.additional_properties = d
        return import_

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
