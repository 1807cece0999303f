from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.signal import Signal





T = TypeVar("T", bound="Dimension")



@_attrs_define
class Dimension:
    """ One dimension: its score (its signals' points out of what it could earn) and its share of the total.

        Attributes:
            available (int): The sum of the maxima of the signals measured (100 when none is left out).
            key (str):
            label (str):
            score (int): 0–100: `round(100 × Σ points / available)`; the sum of the points when all six are measured.
            signals (list[Signal]):
            weight (int): Percent of the total this dimension weighs.
            weighted (float): `score × weight / 100`: what this dimension adds to `base`.
     """

    available: int
    key: str
    label: str
    score: int
    signals: list[Signal]
    weight: int
    weighted: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.signal import Signal # noqa: PLC0415
        available = self.available

        key = self.key

        label = self.label

        score = self.score

        signals = []
        for signals_item_data in self.signals:
            signals_item = signals_item_data.to_dict()
            signals.append(signals_item)



        weight = self.weight

        weighted = self.weighted


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "available": available,
            "key": key,
            "label": label,
            "score": score,
            "signals": signals,
            "weight": weight,
            "weighted": weighted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signal import Signal # noqa: PLC0415
        d = dict(src_dict)
        available = d.pop("available")

        key = d.pop("key")

        label = d.pop("label")

        score = d.pop("score")

        signals = []
        _signals = d.pop("signals")
        for signals_item_data in (_signals):
            signals_item = Signal.from_dict(signals_item_data)



            signals.append(signals_item)


        weight = d.pop("weight")

        weighted = d.pop("weighted")

        dimension = cls(
            available=available,
            key=key,
            label=label,
            score=score,
            signals=signals,
            weight=weight,
            weighted=weighted,
        )


        dimension.additional_properties = d
        return dimension

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
