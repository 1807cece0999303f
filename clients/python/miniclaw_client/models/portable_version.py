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
  from ..models.portable_version_snapshot import PortableVersionSnapshot





T = TypeVar("T", bound="PortableVersion")



@_attrs_define
class PortableVersion:
    """ One version of a memory.

        Attributes:
            actor_type (str): owner, api_key, job, admin, system.
            change (str): create, update, merge, deprecate, invalidate, status, pin, delete, mention, restore,
                fade, fuse or split.
            created_at (datetime.datetime):
            snapshot (PortableVersionSnapshot): The memory as it was after the change.
            version (int):
            reason (None | str | Unset):
     """

    actor_type: str
    change: str
    created_at: datetime.datetime
    snapshot: PortableVersionSnapshot
    version: int
    reason: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.portable_version_snapshot import PortableVersionSnapshot # noqa: PLC0415
        actor_type = self.actor_type

        change = self.change

        created_at = self.created_at.isoformat()

        snapshot = self.snapshot.to_dict()

        version = self.version

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "actor_type": actor_type,
            "change": change,
            "created_at": created_at,
            "snapshot": snapshot,
            "version": version,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portable_version_snapshot import PortableVersionSnapshot # noqa: PLC0415
        d = dict(src_dict)
        actor_type = d.pop("actor_type")

        change = d.pop("change")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        snapshot = PortableVersionSnapshot.from_dict(d.pop("snapshot"))




        version = d.pop("version")

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        portable_version = cls(
            actor_type=actor_type,
            change=change,
            created_at=created_at,
            snapshot=snapshot,
            version=version,
            reason=reason,
        )

        return portable_version

