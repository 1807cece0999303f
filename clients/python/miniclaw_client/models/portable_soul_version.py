from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="PortableSoulVersion")



@_attrs_define
class PortableSoulVersion:
    """ One version of the soul.

        Attributes:
            accepted_by (str): How it was let in: `first`, `owner`, `similar`, `guard` (or `jaccard`, `import`).
            actor_type (str): owner, api_key, job, admin, system.
            content (str):
            created_at (datetime.datetime):
            version (int):
            reason (None | str | Unset):
     """

    accepted_by: str
    actor_type: str
    content: str
    created_at: datetime.datetime
    version: int
    reason: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        accepted_by = self.accepted_by

        actor_type = self.actor_type

        content = self.content

        created_at = self.created_at.isoformat()

        version = self.version

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "accepted_by": accepted_by,
            "actor_type": actor_type,
            "content": content,
            "created_at": created_at,
            "version": version,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accepted_by = d.pop("accepted_by")

        actor_type = d.pop("actor_type")

        content = d.pop("content")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        version = d.pop("version")

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        portable_soul_version = cls(
            accepted_by=accepted_by,
            actor_type=actor_type,
            content=content,
            created_at=created_at,
            version=version,
            reason=reason,
        )

        return portable_soul_version

