from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="SoulVersion")



@_attrs_define
class SoulVersion:
    """ One version of a soul.

        Attributes:
            accepted_by (str): How it was let in: `first`, `owner`, `similar` or `guard` (`jaccard` in versions from
                before the order-aware measure).
            actor_type (str): owner, api_key, job, admin, system
            content (str):
            created_at (datetime.datetime):
            version (int):
            actor_id (None | str | Unset):
            reason (None | str | Unset):
     """

    accepted_by: str
    actor_type: str
    content: str
    created_at: datetime.datetime
    version: int
    actor_id: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        accepted_by = self.accepted_by

        actor_type = self.actor_type

        content = self.content

        created_at = self.created_at.isoformat()

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


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accepted_by": accepted_by,
            "actor_type": actor_type,
            "content": content,
            "created_at": created_at,
            "version": version,
        })
        if actor_id is not UNSET:
            field_dict["actor_id"] = actor_id
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


        soul_version = cls(
            accepted_by=accepted_by,
            actor_type=actor_type,
            content=content,
            created_at=created_at,
            version=version,
            actor_id=actor_id,
            reason=reason,
        )


        soul_version.additional_properties = d
        return soul_version

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
