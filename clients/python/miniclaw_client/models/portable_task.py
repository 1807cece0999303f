from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="PortableTask")



@_attrs_define
class PortableTask:
    """ One task.

        Attributes:
            created_at (datetime.datetime):
            source (str): reflection, owner or agent.
            status (str): pending, approved, in_progress, done, rejected.
            title (str):
            updated_at (datetime.datetime):
            detail (None | str | Unset):
            due_at (datetime.datetime | None | Unset):
            reason (None | str | Unset):
     """

    created_at: datetime.datetime
    source: str
    status: str
    title: str
    updated_at: datetime.datetime
    detail: None | str | Unset = UNSET
    due_at: datetime.datetime | None | Unset = UNSET
    reason: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        source = self.source

        status = self.status

        title = self.title

        updated_at = self.updated_at.isoformat()

        detail: None | str | Unset
        if isinstance(self.detail, Unset):
            detail = UNSET
        else:
            detail = self.detail

        due_at: None | str | Unset
        if isinstance(self.due_at, Unset):
            due_at = UNSET
        elif isinstance(self.due_at, datetime.datetime):
            due_at = self.due_at.isoformat()
        else:
            due_at = self.due_at

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "created_at": created_at,
            "source": source,
            "status": status,
            "title": title,
            "updated_at": updated_at,
        })
        if detail is not UNSET:
            field_dict["detail"] = detail
        if due_at is not UNSET:
            field_dict["due_at"] = due_at
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        source = d.pop("source")

        status = d.pop("status")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_detail(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        detail = _parse_detail(d.pop("detail", UNSET))


        def _parse_due_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_at_type_0 = datetime.datetime.fromisoformat(data)



                return due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        due_at = _parse_due_at(d.pop("due_at", UNSET))


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        portable_task = cls(
            created_at=created_at,
            source=source,
            status=status,
            title=title,
            updated_at=updated_at,
            detail=detail,
            due_at=due_at,
            reason=reason,
        )

        return portable_task

