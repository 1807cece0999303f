from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.item import Item





T = TypeVar("T", bound="Summary")



@_attrs_define
class Summary:
    """ The agent's proactive side at a glance.

        Attributes:
            daily_max (int): Proactive messages and suggestions per 24 hours, at most (0–10).
            dial (str): The agent's `proactiveness`: `conservative`, `moderate` or `eager`.
            recent (list[Item]): The 20 newest of the rest (sent, settled, held back).
            sent_last_24h (int):
            trust (float): 0–1, starting at 0.5: accepted +0.05, ignored −0.02, dismissed −0.05. Below 0.3 only
                urgent items go out.
            upcoming (list[Item]): What is scheduled, soonest first.
     """

    daily_max: int
    dial: str
    recent: list[Item]
    sent_last_24h: int
    trust: float
    upcoming: list[Item]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.item import Item # noqa: PLC0415
        daily_max = self.daily_max

        dial = self.dial

        recent = []
        for recent_item_data in self.recent:
            recent_item = recent_item_data.to_dict()
            recent.append(recent_item)



        sent_last_24h = self.sent_last_24h

        trust = self.trust

        upcoming = []
        for upcoming_item_data in self.upcoming:
            upcoming_item = upcoming_item_data.to_dict()
            upcoming.append(upcoming_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "daily_max": daily_max,
            "dial": dial,
            "recent": recent,
            "sent_last_24h": sent_last_24h,
            "trust": trust,
            "upcoming": upcoming,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.item import Item # noqa: PLC0415
        d = dict(src_dict)
        daily_max = d.pop("daily_max")

        dial = d.pop("dial")

        recent = []
        _recent = d.pop("recent")
        for recent_item_data in (_recent):
            recent_item = Item.from_dict(recent_item_data)



            recent.append(recent_item)


        sent_last_24h = d.pop("sent_last_24h")

        trust = d.pop("trust")

        upcoming = []
        _upcoming = d.pop("upcoming")
        for upcoming_item_data in (_upcoming):
            upcoming_item = Item.from_dict(upcoming_item_data)



            upcoming.append(upcoming_item)


        summary = cls(
            daily_max=daily_max,
            dial=dial,
            recent=recent,
            sent_last_24h=sent_last_24h,
            trust=trust,
            upcoming=upcoming,
        )


        summary.additional_properties = d
        return summary

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
