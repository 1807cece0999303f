from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.batch_day import BatchDay





T = TypeVar("T", bound="BatchEfficiency")



@_attrs_define
class BatchEfficiency:
    """ Extraction batching over a range (001 §9.4.13).

        Attributes:
            calls_saved (int):
            days (list[BatchDay]):
            extraction_calls (int):
            from_ (datetime.datetime):
            messages_extracted (int):
            to (datetime.datetime):
            avg_extraction_prompt_tokens (float | None | Unset): The measured prompt of an extraction call (tokens, mean
                over the range's calls).
            avg_message_tokens (float | None | Unset): The measured mean size of a message that went through extraction
                (tokens, counted as
                characters / 4).
            efficiency (float | None | Unset): calls_saved / (calls_saved + extraction_calls).
            tokens_saved_estimate (int | None | Unset): What every call saved did not send again: the prompt beyond its
                messages
                (`avg_extraction_prompt_tokens − avg_batch_size × avg_message_tokens`, at least 0), times
                `calls_saved`. `null` without extraction calls.
     """

    calls_saved: int
    days: list[BatchDay]
    extraction_calls: int
    from_: datetime.datetime
    messages_extracted: int
    to: datetime.datetime
    avg_extraction_prompt_tokens: float | None | Unset = UNSET
    avg_message_tokens: float | None | Unset = UNSET
    efficiency: float | None | Unset = UNSET
    tokens_saved_estimate: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_day import BatchDay # noqa: PLC0415
        calls_saved = self.calls_saved

        days = []
        for days_item_data in self.days:
            days_item = days_item_data.to_dict()
            days.append(days_item)



        extraction_calls = self.extraction_calls

        from_ = self.from_.isoformat()

        messages_extracted = self.messages_extracted

        to = self.to.isoformat()

        avg_extraction_prompt_tokens: float | None | Unset
        if isinstance(self.avg_extraction_prompt_tokens, Unset):
            avg_extraction_prompt_tokens = UNSET
        else:
            avg_extraction_prompt_tokens = self.avg_extraction_prompt_tokens

        avg_message_tokens: float | None | Unset
        if isinstance(self.avg_message_tokens, Unset):
            avg_message_tokens = UNSET
        else:
            avg_message_tokens = self.avg_message_tokens

        efficiency: float | None | Unset
        if isinstance(self.efficiency, Unset):
            efficiency = UNSET
        else:
            efficiency = self.efficiency

        tokens_saved_estimate: int | None | Unset
        if isinstance(self.tokens_saved_estimate, Unset):
            tokens_saved_estimate = UNSET
        else:
            tokens_saved_estimate = self.tokens_saved_estimate


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls_saved": calls_saved,
            "days": days,
            "extraction_calls": extraction_calls,
            "from": from_,
            "messages_extracted": messages_extracted,
            "to": to,
        })
        if avg_extraction_prompt_tokens is not UNSET:
            field_dict["avg_extraction_prompt_tokens"] = avg_extraction_prompt_tokens
        if avg_message_tokens is not UNSET:
            field_dict["avg_message_tokens"] = avg_message_tokens
        if efficiency is not UNSET:
            field_dict["efficiency"] = efficiency
        if tokens_saved_estimate is not UNSET:
            field_dict["tokens_saved_estimate"] = tokens_saved_estimate

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_day import BatchDay # noqa: PLC0415
        d = dict(src_dict)
        calls_saved = d.pop("calls_saved")

        days = []
        _days = d.pop("days")
        for days_item_data in (_days):
            days_item = BatchDay.from_dict(days_item_data)



            days.append(days_item)


        extraction_calls = d.pop("extraction_calls")

        from_ = datetime.datetime.fromisoformat(d.pop("from"))




        messages_extracted = d.pop("messages_extracted")

        to = datetime.datetime.fromisoformat(d.pop("to"))




        def _parse_avg_extraction_prompt_tokens(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_extraction_prompt_tokens = _parse_avg_extraction_prompt_tokens(d.pop("avg_extraction_prompt_tokens", UNSET))


        def _parse_avg_message_tokens(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_message_tokens = _parse_avg_message_tokens(d.pop("avg_message_tokens", UNSET))


        def _parse_efficiency(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        efficiency = _parse_efficiency(d.pop("efficiency", UNSET))


        def _parse_tokens_saved_estimate(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tokens_saved_estimate = _parse_tokens_saved_estimate(d.pop("tokens_saved_estimate", UNSET))


        batch_efficiency = cls(
            calls_saved=calls_saved,
            days=days,
            extraction_calls=extraction_calls,
            from_=from_,
            messages_extracted=messages_extracted,
            to=to,
            avg_extraction_prompt_tokens=avg_extraction_prompt_tokens,
            avg_message_tokens=avg_message_tokens,
            efficiency=efficiency,
            tokens_saved_estimate=tokens_saved_estimate,
        )


        batch_efficiency.additional_properties = d
        return batch_efficiency

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
