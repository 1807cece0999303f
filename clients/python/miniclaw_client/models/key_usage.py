from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.key_day import KeyDay





T = TypeVar("T", bound="KeyUsage")



@_attrs_define
class KeyUsage:
    """ A key's usage over its last days, newest first, and where it stands today.

        Attributes:
            days (list[KeyDay]): Days with calls, newest first.
            key_id (UUID):
            today_held_usd (float): Dollars held today by the key's work in progress (its replies being written).
            today_spent_usd (float): Dollars the key's work cost today (UTC), as its daily cap counts them.
     """

    days: list[KeyDay]
    key_id: UUID
    today_held_usd: float
    today_spent_usd: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.key_day import KeyDay # noqa: PLC0415
        days = []
        for days_item_data in self.days:
            days_item = days_item_data.to_dict()
            days.append(days_item)



        key_id = str(self.key_id)

        today_held_usd = self.today_held_usd

        today_spent_usd = self.today_spent_usd


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "days": days,
            "key_id": key_id,
            "today_held_usd": today_held_usd,
            "today_spent_usd": today_spent_usd,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.key_day import KeyDay # noqa: PLC0415
        d = dict(src_dict)
        days = []
        _days = d.pop("days")
        for days_item_data in (_days):
            days_item = KeyDay.from_dict(days_item_data)



            days.append(days_item)


        key_id = UUID(d.pop("key_id"))




        today_held_usd = d.pop("today_held_usd")

        today_spent_usd = d.pop("today_spent_usd")

        key_usage = cls(
            days=days,
            key_id=key_id,
            today_held_usd=today_held_usd,
            today_spent_usd=today_spent_usd,
        )


        key_usage.additional_properties = d
        return key_usage

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
