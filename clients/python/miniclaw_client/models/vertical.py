from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.unavailable import Unavailable
  from ..models.vertical_metrics import VerticalMetrics





T = TypeVar("T", bound="Vertical")



@_attrs_define
class Vertical:
    """ One vertical's metrics.

        Attributes:
            cached (bool): Served from the 60-second cache.
            computed_at (datetime.datetime):
            metrics (VerticalMetrics):
            not_available (list[Unavailable]):
            scope (str): `tenant` (your agents) or `platform` (every tenant; the operator's view).
            vertical (str):
     """

    cached: bool
    computed_at: datetime.datetime
    metrics: VerticalMetrics
    not_available: list[Unavailable]
    scope: str
    vertical: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.unavailable import Unavailable # noqa: PLC0415
        from ..models.vertical_metrics import VerticalMetrics # noqa: PLC0415
        cached = self.cached

        computed_at = self.computed_at.isoformat()

        metrics = self.metrics.to_dict()

        not_available = []
        for not_available_item_data in self.not_available:
            not_available_item = not_available_item_data.to_dict()
            not_available.append(not_available_item)



        scope = self.scope

        vertical = self.vertical


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cached": cached,
            "computed_at": computed_at,
            "metrics": metrics,
            "not_available": not_available,
            "scope": scope,
            "vertical": vertical,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.unavailable import Unavailable # noqa: PLC0415
        from ..models.vertical_metrics import VerticalMetrics # noqa: PLC0415
        d = dict(src_dict)
        cached = d.pop("cached")

        computed_at = datetime.datetime.fromisoformat(d.pop("computed_at"))




        metrics = VerticalMetrics.from_dict(d.pop("metrics"))




        not_available = []
        _not_available = d.pop("not_available")
        for not_available_item_data in (_not_available):
            not_available_item = Unavailable.from_dict(not_available_item_data)



            not_available.append(not_available_item)


        scope = d.pop("scope")

        vertical = d.pop("vertical")

        vertical = cls(
            cached=cached,
            computed_at=computed_at,
            metrics=metrics,
            not_available=not_available,
            scope=scope,
            vertical=vertical,
        )


        vertical.additional_properties = d
        return vertical

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
