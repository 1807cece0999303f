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
  from ..models.memory_version_snapshot import MemoryVersionSnapshot





T = TypeVar("T", bound="MemoryVersion")



@_attrs_define
class MemoryVersion:
    """ One version of a memory (R7).

        Attributes:
            actor_type (str):
            change (str): create, update, merge, deprecate, invalidate, status, pin, delete, mention
            created_at (datetime.datetime):
            snapshot (MemoryVersionSnapshot): The memory's fields after the change (before it, for `delete`).
            version (int):
            actor_id (None | str | Unset):
            reason (None | str | Unset):
            request_id (None | str | Unset):
     """

    actor_type: str
    change: str
    created_at: datetime.datetime
    snapshot: MemoryVersionSnapshot
    version: int
    actor_id: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory_version_snapshot import MemoryVersionSnapshot # noqa: PLC0415
        actor_type = self.actor_type

        change = self.change

        created_at = self.created_at.isoformat()

        snapshot = self.snapshot.to_dict()

        version = self.version

        actor_id: None | str | Unset
        if isinstance(self.actor_id, Unset):
            actor_id = UNSET
        else:
            actor_id = self.actor_id

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "actor_type": actor_type,
            "change": change,
            "created_at": created_at,
            "snapshot": snapshot,
            "version": version,
        })
        if actor_id is not UNSET:
            field_dict["actor_id"] = actor_id
        if reason is not UNSET:
            field_dict["reason"] = reason
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_version_snapshot import MemoryVersionSnapshot # noqa: PLC0415
        d = dict(src_dict)
        actor_type = d.pop("actor_type")

        change = d.pop("change")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        snapshot = MemoryVersionSnapshot.from_dict(d.pop("snapshot"))




        version = d.pop("version")

        def _parse_actor_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actor_id = _parse_actor_id(d.pop("actor_id", UNSET))


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("request_id", UNSET))


        memory_version = cls(
            actor_type=actor_type,
            change=change,
            created_at=created_at,
            snapshot=snapshot,
            version=version,
            actor_id=actor_id,
            reason=reason,
            request_id=request_id,
        )


        memory_version.additional_properties = d
        return memory_version

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
