from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.topup import Topup





T = TypeVar("T", bound="Subsidy")



@_attrs_define
class Subsidy:
    """ 
        Attributes:
            daily_budget_wei (str):
            floor_wei (str): 0: the subsidy is off.
            spent_today_wei (str): Given platform-wide today (UTC), failed top-ups excluded.
            topups (list[Topup]): The agent's latest top-ups, newest first.
     """

    daily_budget_wei: str
    floor_wei: str
    spent_today_wei: str
    topups: list[Topup]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.topup import Topup # noqa: PLC0415
        daily_budget_wei = self.daily_budget_wei

        floor_wei = self.floor_wei

        spent_today_wei = self.spent_today_wei

        topups = []
        for topups_item_data in self.topups:
            topups_item = topups_item_data.to_dict()
            topups.append(topups_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "daily_budget_wei": daily_budget_wei,
            "floor_wei": floor_wei,
            "spent_today_wei": spent_today_wei,
            "topups": topups,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.topup import Topup # noqa: PLC0415
        d = dict(src_dict)
        daily_budget_wei = d.pop("daily_budget_wei")

        floor_wei = d.pop("floor_wei")

        spent_today_wei = d.pop("spent_today_wei")

        topups = []
        _topups = d.pop("topups")
        for topups_item_data in (_topups):
            topups_item = Topup.from_dict(topups_item_data)



            topups.append(topups_item)


        subsidy = cls(
            daily_budget_wei=daily_budget_wei,
            floor_wei=floor_wei,
            spent_today_wei=spent_today_wei,
            topups=topups,
        )


        subsidy.additional_properties = d
        return subsidy

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
