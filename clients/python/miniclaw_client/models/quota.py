from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="Quota")



@_attrs_define
class Quota:
    """ The agent's sending quota now.

        Attributes:
            limit_per_day (int):
            remaining (int):
            used (int): Emails sent or queued in the last 24 hours.
            next_slot_at (datetime.datetime | None | Unset): When the oldest of them leaves the 24-hour window (`null` when
                none is counted).
     """

    limit_per_day: int
    remaining: int
    used: int
    next_slot_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        limit_per_day = self.limit_per_day

        remaining = self.remaining

        used = self.used

        next_slot_at: None | str | Unset
        if isinstance(self.next_slot_at, Unset):
            next_slot_at = UNSET
        elif isinstance(self.next_slot_at, datetime.datetime):
            next_slot_at = self.next_slot_at.isoformat()
        else:
            next_slot_at = self.next_slot_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "limit_per_day": limit_per_day,
            "remaining": remaining,
            "used": used,
        })
        if next_slot_at is not UNSET:
            field_dict["next_slot_at"] = next_slot_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        limit_per_day = d.pop("limit_per_day")

        remaining = d.pop("remaining")

        used = d.pop("used")

        def _parse_next_slot_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_slot_at_type_0 = datetime.datetime.fromisoformat(data)



                return next_slot_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_slot_at = _parse_next_slot_at(d.pop("next_slot_at", UNSET))


        quota = cls(
            limit_per_day=limit_per_day,
            remaining=remaining,
            used=used,
            next_slot_at=next_slot_at,
        )


        quota.additional_properties = d
        return quota

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
