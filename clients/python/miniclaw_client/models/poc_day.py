from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.poc_day_dimensions import PocDayDimensions





T = TypeVar("T", bound="PocDay")



@_attrs_define
class PocDay:
    """ One day of an agent's score history.

        Attributes:
            computed_at (datetime.datetime):
            day (datetime.date): The UTC day.
            dimensions (PocDayDimensions): Each dimension's 0–100 score: `{"identity": …, "social": …, …}`.
            grade (str): S, A, B, C or D.
            multiplier (float): The backing multiplier applied (1.0–1.1).
            total (int):
     """

    computed_at: datetime.datetime
    day: datetime.date
    dimensions: PocDayDimensions
    grade: str
    multiplier: float
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.poc_day_dimensions import PocDayDimensions # noqa: PLC0415
        computed_at = self.computed_at.isoformat()

        day = self.day.isoformat()

        dimensions = self.dimensions.to_dict()

        grade = self.grade

        multiplier = self.multiplier

        total = self.total


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "computed_at": computed_at,
            "day": day,
            "dimensions": dimensions,
            "grade": grade,
            "multiplier": multiplier,
            "total": total,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.poc_day_dimensions import PocDayDimensions # noqa: PLC0415
        d = dict(src_dict)
        computed_at = datetime.datetime.fromisoformat(d.pop("computed_at"))




        day = datetime.date.fromisoformat(d.pop("day"))




        dimensions = PocDayDimensions.from_dict(d.pop("dimensions"))




        grade = d.pop("grade")

        multiplier = d.pop("multiplier")

        total = d.pop("total")

        poc_day = cls(
            computed_at=computed_at,
            day=day,
            dimensions=dimensions,
            grade=grade,
            multiplier=multiplier,
            total=total,
        )


        poc_day.additional_properties = d
        return poc_day

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
