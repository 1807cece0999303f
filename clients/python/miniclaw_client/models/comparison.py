from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.compared import Compared





T = TypeVar("T", bound="Comparison")



@_attrs_define
class Comparison:
    """ The comparison of the last `period_days` with the `period_days` before.

        Attributes:
            current_from (datetime.datetime):
            metrics (list[Compared]): The 14 metrics of 001 §9.4.14.
            period_days (int):
            previous_from (datetime.datetime):
            to (datetime.datetime):
     """

    current_from: datetime.datetime
    metrics: list[Compared]
    period_days: int
    previous_from: datetime.datetime
    to: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.compared import Compared # noqa: PLC0415
        current_from = self.current_from.isoformat()

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)



        period_days = self.period_days

        previous_from = self.previous_from.isoformat()

        to = self.to.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "current_from": current_from,
            "metrics": metrics,
            "period_days": period_days,
            "previous_from": previous_from,
            "to": to,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.compared import Compared # noqa: PLC0415
        d = dict(src_dict)
        current_from = datetime.datetime.fromisoformat(d.pop("current_from"))




        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in (_metrics):
            metrics_item = Compared.from_dict(metrics_item_data)



            metrics.append(metrics_item)


        period_days = d.pop("period_days")

        previous_from = datetime.datetime.fromisoformat(d.pop("previous_from"))




        to = datetime.datetime.fromisoformat(d.pop("to"))




        comparison = cls(
            current_from=current_from,
            metrics=metrics,
            period_days=period_days,
            previous_from=previous_from,
            to=to,
        )


        comparison.additional_properties = d
        return comparison

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
