from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="Point")



@_attrs_define
class Point:
    """ One hour or day of a series.

        Attributes:
            cost_usd (float):
            failed_replies (int):
            messages (int):
            start (datetime.datetime):
            latency_p50_ms (float | None | Unset):
            latency_p95_ms (float | None | Unset):
            triage_skip_rate (float | None | Unset):
     """

    cost_usd: float
    failed_replies: int
    messages: int
    start: datetime.datetime
    latency_p50_ms: float | None | Unset = UNSET
    latency_p95_ms: float | None | Unset = UNSET
    triage_skip_rate: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        cost_usd = self.cost_usd

        failed_replies = self.failed_replies

        messages = self.messages

        start = self.start.isoformat()

        latency_p50_ms: float | None | Unset
        if isinstance(self.latency_p50_ms, Unset):
            latency_p50_ms = UNSET
        else:
            latency_p50_ms = self.latency_p50_ms

        latency_p95_ms: float | None | Unset
        if isinstance(self.latency_p95_ms, Unset):
            latency_p95_ms = UNSET
        else:
            latency_p95_ms = self.latency_p95_ms

        triage_skip_rate: float | None | Unset
        if isinstance(self.triage_skip_rate, Unset):
            triage_skip_rate = UNSET
        else:
            triage_skip_rate = self.triage_skip_rate


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cost_usd": cost_usd,
            "failed_replies": failed_replies,
            "messages": messages,
            "start": start,
        })
        if latency_p50_ms is not UNSET:
            field_dict["latency_p50_ms"] = latency_p50_ms
        if latency_p95_ms is not UNSET:
            field_dict["latency_p95_ms"] = latency_p95_ms
        if triage_skip_rate is not UNSET:
            field_dict["triage_skip_rate"] = triage_skip_rate

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cost_usd = d.pop("cost_usd")

        failed_replies = d.pop("failed_replies")

        messages = d.pop("messages")

        start = datetime.datetime.fromisoformat(d.pop("start"))




        def _parse_latency_p50_ms(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        latency_p50_ms = _parse_latency_p50_ms(d.pop("latency_p50_ms", UNSET))


        def _parse_latency_p95_ms(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        latency_p95_ms = _parse_latency_p95_ms(d.pop("latency_p95_ms", UNSET))


        def _parse_triage_skip_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        triage_skip_rate = _parse_triage_skip_rate(d.pop("triage_skip_rate", UNSET))


        point = cls(
            cost_usd=cost_usd,
            failed_replies=failed_replies,
            messages=messages,
            start=start,
            latency_p50_ms=latency_p50_ms,
            latency_p95_ms=latency_p95_ms,
            triage_skip_rate=triage_skip_rate,
        )


        point.additional_properties = d
        return point

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
