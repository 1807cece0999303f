from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.better import Better
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Compared")



@_attrs_define
class Compared:
    """ One metric, now and the period before.

        Attributes:
            better (Better): Whether a rise of a metric is good news.
            metric (str):
            verdict (str): `improved`, `regressed`, `unchanged`, `changed` (for metrics that are neither good nor
                bad) or `not_available` (no data in one of the periods).
            current (float | None | Unset):
            delta (float | None | Unset): current − previous.
            pct_change (float | None | Unset): The change in percent of the previous value (`null` when that is 0 or
                missing).
            previous (float | None | Unset):
     """

    better: Better
    metric: str
    verdict: str
    current: float | None | Unset = UNSET
    delta: float | None | Unset = UNSET
    pct_change: float | None | Unset = UNSET
    previous: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        better = self.better.value

        metric = self.metric

        verdict = self.verdict

        current: float | None | Unset
        if isinstance(self.current, Unset):
            current = UNSET
        else:
            current = self.current

        delta: float | None | Unset
        if isinstance(self.delta, Unset):
            delta = UNSET
        else:
            delta = self.delta

        pct_change: float | None | Unset
        if isinstance(self.pct_change, Unset):
            pct_change = UNSET
        else:
            pct_change = self.pct_change

        previous: float | None | Unset
        if isinstance(self.previous, Unset):
            previous = UNSET
        else:
            previous = self.previous


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "better": better,
            "metric": metric,
            "verdict": verdict,
        })
        if current is not UNSET:
            field_dict["current"] = current
        if delta is not UNSET:
            field_dict["delta"] = delta
        if pct_change is not UNSET:
            field_dict["pct_change"] = pct_change
        if previous is not UNSET:
            field_dict["previous"] = previous

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        better = Better(d.pop("better"))




        metric = d.pop("metric")

        verdict = d.pop("verdict")

        def _parse_current(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        current = _parse_current(d.pop("current", UNSET))


        def _parse_delta(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        delta = _parse_delta(d.pop("delta", UNSET))


        def _parse_pct_change(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        pct_change = _parse_pct_change(d.pop("pct_change", UNSET))


        def _parse_previous(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        previous = _parse_previous(d.pop("previous", UNSET))


        compared = cls(
            better=better,
            metric=metric,
            verdict=verdict,
            current=current,
            delta=delta,
            pct_change=pct_change,
            previous=previous,
        )


        compared.additional_properties = d
        return compared

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
