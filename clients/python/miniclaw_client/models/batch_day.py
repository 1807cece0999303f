from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="BatchDay")



@_attrs_define
class BatchDay:
    """ One day of batching.

        Attributes:
            calls_saved (int): Calls a per-message extraction would have made on top: Σ (batch size − 1).
            day (datetime.date):
            extraction_calls (int): Extraction calls made.
            avg_batch_size (float | None | Unset):
            avg_batch_threshold (float | None | Unset):
            facts_per_extraction (float | None | Unset):
     """

    calls_saved: int
    day: datetime.date
    extraction_calls: int
    avg_batch_size: float | None | Unset = UNSET
    avg_batch_threshold: float | None | Unset = UNSET
    facts_per_extraction: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        calls_saved = self.calls_saved

        day = self.day.isoformat()

        extraction_calls = self.extraction_calls

        avg_batch_size: float | None | Unset
        if isinstance(self.avg_batch_size, Unset):
            avg_batch_size = UNSET
        else:
            avg_batch_size = self.avg_batch_size

        avg_batch_threshold: float | None | Unset
        if isinstance(self.avg_batch_threshold, Unset):
            avg_batch_threshold = UNSET
        else:
            avg_batch_threshold = self.avg_batch_threshold

        facts_per_extraction: float | None | Unset
        if isinstance(self.facts_per_extraction, Unset):
            facts_per_extraction = UNSET
        else:
            facts_per_extraction = self.facts_per_extraction


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls_saved": calls_saved,
            "day": day,
            "extraction_calls": extraction_calls,
        })
        if avg_batch_size is not UNSET:
            field_dict["avg_batch_size"] = avg_batch_size
        if avg_batch_threshold is not UNSET:
            field_dict["avg_batch_threshold"] = avg_batch_threshold
        if facts_per_extraction is not UNSET:
            field_dict["facts_per_extraction"] = facts_per_extraction

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        calls_saved = d.pop("calls_saved")

        day = datetime.date.fromisoformat(d.pop("day"))




        extraction_calls = d.pop("extraction_calls")

        def _parse_avg_batch_size(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_batch_size = _parse_avg_batch_size(d.pop("avg_batch_size", UNSET))


        def _parse_avg_batch_threshold(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_batch_threshold = _parse_avg_batch_threshold(d.pop("avg_batch_threshold", UNSET))


        def _parse_facts_per_extraction(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        facts_per_extraction = _parse_facts_per_extraction(d.pop("facts_per_extraction", UNSET))


        batch_day = cls(
            calls_saved=calls_saved,
            day=day,
            extraction_calls=extraction_calls,
            avg_batch_size=avg_batch_size,
            avg_batch_threshold=avg_batch_threshold,
            facts_per_extraction=facts_per_extraction,
        )


        batch_day.additional_properties = d
        return batch_day

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
