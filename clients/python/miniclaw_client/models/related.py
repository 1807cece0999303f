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
  from ..models.memory import Memory





T = TypeVar("T", bound="Related")



@_attrs_define
class Related:
    """ One relation of a memory as the API shows it.

        Attributes:
            created_at (datetime.datetime):
            direction (str): `outgoing`: this memory updates/extends/derives from the other; `incoming`: the other
                does so from this one.
            kind (str): `updates`, `extends` or `derives`.
            memory (Memory): One memory as the API shows it (the vector itself stays in the database).
            reason (None | str | Unset):
     """

    created_at: datetime.datetime
    direction: str
    kind: str
    memory: Memory
    reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory import Memory # noqa: PLC0415
        created_at = self.created_at.isoformat()

        direction = self.direction

        kind = self.kind

        memory = self.memory.to_dict()

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "direction": direction,
            "kind": kind,
            "memory": memory,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        direction = d.pop("direction")

        kind = d.pop("kind")

        memory = Memory.from_dict(d.pop("memory"))




        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        related = cls(
            created_at=created_at,
            direction=direction,
            kind=kind,
            memory=memory,
            reason=reason,
        )


        related.additional_properties = d
        return related

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
