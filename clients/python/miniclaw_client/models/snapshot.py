from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="Snapshot")



@_attrs_define
class Snapshot:
    """ One agent's day.

        Attributes:
            completion_tokens (int):
            computed_at (datetime.datetime):
            day (datetime.date):
            messages (int):
            prompt_tokens (int):
            total_cost_usd (float): Every model call of the agent that day (chat and background), USD.
            avg_batch_size (float | None | Unset):
            avg_batch_threshold (float | None | Unset):
            avg_context_tokens (float | None | Unset):
            avg_cost_per_message (float | None | Unset):
            avg_facts_per_extraction (float | None | Unset):
            avg_latency_ms (float | None | Unset):
            avg_memories_used (float | None | Unset):
            avg_quality_score (float | None | Unset): The day's quality evaluations averaged (1–10); `null` while none
                exist.
            avg_triage_ms (float | None | Unset):
            dedup_exact_match_rate (float | None | Unset): Shares of extraction's dedup outcomes.
            dedup_llm_duplicate_rate (float | None | Unset):
            dedup_llm_new_rate (float | None | Unset):
            dedup_llm_update_rate (float | None | Unset):
            dedup_no_existing_rate (float | None | Unset):
            dossier_use_rate (float | None | Unset):
            error_rate (float | None | Unset):
            extraction_rate (float | None | Unset):
            p95_latency_ms (float | None | Unset):
            triage_skip_rate (float | None | Unset):
     """

    completion_tokens: int
    computed_at: datetime.datetime
    day: datetime.date
    messages: int
    prompt_tokens: int
    total_cost_usd: float
    avg_batch_size: float | None | Unset = UNSET
    avg_batch_threshold: float | None | Unset = UNSET
    avg_context_tokens: float | None | Unset = UNSET
    avg_cost_per_message: float | None | Unset = UNSET
    avg_facts_per_extraction: float | None | Unset = UNSET
    avg_latency_ms: float | None | Unset = UNSET
    avg_memories_used: float | None | Unset = UNSET
    avg_quality_score: float | None | Unset = UNSET
    avg_triage_ms: float | None | Unset = UNSET
    dedup_exact_match_rate: float | None | Unset = UNSET
    dedup_llm_duplicate_rate: float | None | Unset = UNSET
    dedup_llm_new_rate: float | None | Unset = UNSET
    dedup_llm_update_rate: float | None | Unset = UNSET
    dedup_no_existing_rate: float | None | Unset = UNSET
    dossier_use_rate: float | None | Unset = UNSET
    error_rate: float | None | Unset = UNSET
    extraction_rate: float | None | Unset = UNSET
    p95_latency_ms: float | None | Unset = UNSET
    triage_skip_rate: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        completion_tokens = self.completion_tokens

        computed_at = self.computed_at.isoformat()

        day = self.day.isoformat()

        messages = self.messages

        prompt_tokens = self.prompt_tokens

        total_cost_usd = self.total_cost_usd

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

        avg_context_tokens: float | None | Unset
        if isinstance(self.avg_context_tokens, Unset):
            avg_context_tokens = UNSET
        else:
            avg_context_tokens = self.avg_context_tokens

        avg_cost_per_message: float | None | Unset
        if isinstance(self.avg_cost_per_message, Unset):
            avg_cost_per_message = UNSET
        else:
            avg_cost_per_message = self.avg_cost_per_message

        avg_facts_per_extraction: float | None | Unset
        if isinstance(self.avg_facts_per_extraction, Unset):
            avg_facts_per_extraction = UNSET
        else:
            avg_facts_per_extraction = self.avg_facts_per_extraction

        avg_latency_ms: float | None | Unset
        if isinstance(self.avg_latency_ms, Unset):
            avg_latency_ms = UNSET
        else:
            avg_latency_ms = self.avg_latency_ms

        avg_memories_used: float | None | Unset
        if isinstance(self.avg_memories_used, Unset):
            avg_memories_used = UNSET
        else:
            avg_memories_used = self.avg_memories_used

        avg_quality_score: float | None | Unset
        if isinstance(self.avg_quality_score, Unset):
            avg_quality_score = UNSET
        else:
            avg_quality_score = self.avg_quality_score

        avg_triage_ms: float | None | Unset
        if isinstance(self.avg_triage_ms, Unset):
            avg_triage_ms = UNSET
        else:
            avg_triage_ms = self.avg_triage_ms

        dedup_exact_match_rate: float | None | Unset
        if isinstance(self.dedup_exact_match_rate, Unset):
            dedup_exact_match_rate = UNSET
        else:
            dedup_exact_match_rate = self.dedup_exact_match_rate

        dedup_llm_duplicate_rate: float | None | Unset
        if isinstance(self.dedup_llm_duplicate_rate, Unset):
            dedup_llm_duplicate_rate = UNSET
        else:
            dedup_llm_duplicate_rate = self.dedup_llm_duplicate_rate

        dedup_llm_new_rate: float | None | Unset
        if isinstance(self.dedup_llm_new_rate, Unset):
            dedup_llm_new_rate = UNSET
        else:
            dedup_llm_new_rate = self.dedup_llm_new_rate

        dedup_llm_update_rate: float | None | Unset
        if isinstance(self.dedup_llm_update_rate, Unset):
            dedup_llm_update_rate = UNSET
        else:
            dedup_llm_update_rate = self.dedup_llm_update_rate

        dedup_no_existing_rate: float | None | Unset
        if isinstance(self.dedup_no_existing_rate, Unset):
            dedup_no_existing_rate = UNSET
        else:
            dedup_no_existing_rate = self.dedup_no_existing_rate

        dossier_use_rate: float | None | Unset
        if isinstance(self.dossier_use_rate, Unset):
            dossier_use_rate = UNSET
        else:
            dossier_use_rate = self.dossier_use_rate

        error_rate: float | None | Unset
        if isinstance(self.error_rate, Unset):
            error_rate = UNSET
        else:
            error_rate = self.error_rate

        extraction_rate: float | None | Unset
        if isinstance(self.extraction_rate, Unset):
            extraction_rate = UNSET
        else:
            extraction_rate = self.extraction_rate

        p95_latency_ms: float | None | Unset
        if isinstance(self.p95_latency_ms, Unset):
            p95_latency_ms = UNSET
        else:
            p95_latency_ms = self.p95_latency_ms

        triage_skip_rate: float | None | Unset
        if isinstance(self.triage_skip_rate, Unset):
            triage_skip_rate = UNSET
        else:
            triage_skip_rate = self.triage_skip_rate


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "completion_tokens": completion_tokens,
            "computed_at": computed_at,
            "day": day,
            "messages": messages,
            "prompt_tokens": prompt_tokens,
            "total_cost_usd": total_cost_usd,
        })
        if avg_batch_size is not UNSET:
            field_dict["avg_batch_size"] = avg_batch_size
        if avg_batch_threshold is not UNSET:
            field_dict["avg_batch_threshold"] = avg_batch_threshold
        if avg_context_tokens is not UNSET:
            field_dict["avg_context_tokens"] = avg_context_tokens
        if avg_cost_per_message is not UNSET:
            field_dict["avg_cost_per_message"] = avg_cost_per_message
        if avg_facts_per_extraction is not UNSET:
            field_dict["avg_facts_per_extraction"] = avg_facts_per_extraction
        if avg_latency_ms is not UNSET:
            field_dict["avg_latency_ms"] = avg_latency_ms
        if avg_memories_used is not UNSET:
            field_dict["avg_memories_used"] = avg_memories_used
        if avg_quality_score is not UNSET:
            field_dict["avg_quality_score"] = avg_quality_score
        if avg_triage_ms is not UNSET:
            field_dict["avg_triage_ms"] = avg_triage_ms
        if dedup_exact_match_rate is not UNSET:
            field_dict["dedup_exact_match_rate"] = dedup_exact_match_rate
        if dedup_llm_duplicate_rate is not UNSET:
            field_dict["dedup_llm_duplicate_rate"] = dedup_llm_duplicate_rate
        if dedup_llm_new_rate is not UNSET:
            field_dict["dedup_llm_new_rate"] = dedup_llm_new_rate
        if dedup_llm_update_rate is not UNSET:
            field_dict["dedup_llm_update_rate"] = dedup_llm_update_rate
        if dedup_no_existing_rate is not UNSET:
            field_dict["dedup_no_existing_rate"] = dedup_no_existing_rate
        if dossier_use_rate is not UNSET:
            field_dict["dossier_use_rate"] = dossier_use_rate
        if error_rate is not UNSET:
            field_dict["error_rate"] = error_rate
        if extraction_rate is not UNSET:
            field_dict["extraction_rate"] = extraction_rate
        if p95_latency_ms is not UNSET:
            field_dict["p95_latency_ms"] = p95_latency_ms
        if triage_skip_rate is not UNSET:
            field_dict["triage_skip_rate"] = triage_skip_rate

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        completion_tokens = d.pop("completion_tokens")

        computed_at = datetime.datetime.fromisoformat(d.pop("computed_at"))




        day = datetime.date.fromisoformat(d.pop("day"))




        messages = d.pop("messages")

        prompt_tokens = d.pop("prompt_tokens")

        total_cost_usd = d.pop("total_cost_usd")

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


        def _parse_avg_context_tokens(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_context_tokens = _parse_avg_context_tokens(d.pop("avg_context_tokens", UNSET))


        def _parse_avg_cost_per_message(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_cost_per_message = _parse_avg_cost_per_message(d.pop("avg_cost_per_message", UNSET))


        def _parse_avg_facts_per_extraction(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_facts_per_extraction = _parse_avg_facts_per_extraction(d.pop("avg_facts_per_extraction", UNSET))


        def _parse_avg_latency_ms(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_latency_ms = _parse_avg_latency_ms(d.pop("avg_latency_ms", UNSET))


        def _parse_avg_memories_used(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_memories_used = _parse_avg_memories_used(d.pop("avg_memories_used", UNSET))


        def _parse_avg_quality_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_quality_score = _parse_avg_quality_score(d.pop("avg_quality_score", UNSET))


        def _parse_avg_triage_ms(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_triage_ms = _parse_avg_triage_ms(d.pop("avg_triage_ms", UNSET))


        def _parse_dedup_exact_match_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        dedup_exact_match_rate = _parse_dedup_exact_match_rate(d.pop("dedup_exact_match_rate", UNSET))


        def _parse_dedup_llm_duplicate_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        dedup_llm_duplicate_rate = _parse_dedup_llm_duplicate_rate(d.pop("dedup_llm_duplicate_rate", UNSET))


        def _parse_dedup_llm_new_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        dedup_llm_new_rate = _parse_dedup_llm_new_rate(d.pop("dedup_llm_new_rate", UNSET))


        def _parse_dedup_llm_update_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        dedup_llm_update_rate = _parse_dedup_llm_update_rate(d.pop("dedup_llm_update_rate", UNSET))


        def _parse_dedup_no_existing_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        dedup_no_existing_rate = _parse_dedup_no_existing_rate(d.pop("dedup_no_existing_rate", UNSET))


        def _parse_dossier_use_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        dossier_use_rate = _parse_dossier_use_rate(d.pop("dossier_use_rate", UNSET))


        def _parse_error_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        error_rate = _parse_error_rate(d.pop("error_rate", UNSET))


        def _parse_extraction_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        extraction_rate = _parse_extraction_rate(d.pop("extraction_rate", UNSET))


        def _parse_p95_latency_ms(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        p95_latency_ms = _parse_p95_latency_ms(d.pop("p95_latency_ms", UNSET))


        def _parse_triage_skip_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        triage_skip_rate = _parse_triage_skip_rate(d.pop("triage_skip_rate", UNSET))


        snapshot = cls(
            completion_tokens=completion_tokens,
            computed_at=computed_at,
            day=day,
            messages=messages,
            prompt_tokens=prompt_tokens,
            total_cost_usd=total_cost_usd,
            avg_batch_size=avg_batch_size,
            avg_batch_threshold=avg_batch_threshold,
            avg_context_tokens=avg_context_tokens,
            avg_cost_per_message=avg_cost_per_message,
            avg_facts_per_extraction=avg_facts_per_extraction,
            avg_latency_ms=avg_latency_ms,
            avg_memories_used=avg_memories_used,
            avg_quality_score=avg_quality_score,
            avg_triage_ms=avg_triage_ms,
            dedup_exact_match_rate=dedup_exact_match_rate,
            dedup_llm_duplicate_rate=dedup_llm_duplicate_rate,
            dedup_llm_new_rate=dedup_llm_new_rate,
            dedup_llm_update_rate=dedup_llm_update_rate,
            dedup_no_existing_rate=dedup_no_existing_rate,
            dossier_use_rate=dossier_use_rate,
            error_rate=error_rate,
            extraction_rate=extraction_rate,
            p95_latency_ms=p95_latency_ms,
            triage_skip_rate=triage_skip_rate,
        )


        snapshot.additional_properties = d
        return snapshot

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
