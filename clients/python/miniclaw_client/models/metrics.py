from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.metrics_channels import MetricsChannels
  from ..models.metrics_chat_models import MetricsChatModels
  from ..models.metrics_dedup import MetricsDedup
  from ..models.metrics_finish_reasons import MetricsFinishReasons
  from ..models.metrics_intents import MetricsIntents
  from ..models.metrics_response_styles import MetricsResponseStyles
  from ..models.metrics_skip_reasons import MetricsSkipReasons
  from ..models.percentiles import Percentiles





T = TypeVar("T", bound="Metrics")



@_attrs_define
class Metrics:
    """ The metrics of a range (D1).

        Attributes:
            channels (MetricsChannels):
            chat_cost_usd (float): The chat calls' cost (USD, from the price table; free engines cost 0).
            chat_models (MetricsChatModels):
            completion_tokens (int):
            context_ms (Percentiles): The median, 95th percentile and mean of a stage's time, in ms (`null` without data).
            dedup (MetricsDedup): Extraction's dedup outcomes: exact_match, llm_new, llm_update, llm_duplicate, no_existing.
            failed_replies (int): Replies that failed (a provider error, a crash); not in `messages`.
            finish_reasons (MetricsFinishReasons):
            generation_ms (Percentiles): The median, 95th percentile and mean of a stage's time, in ms (`null` without
                data).
            intents (MetricsIntents):
            latency_ms (Percentiles): The median, 95th percentile and mean of a stage's time, in ms (`null` without data).
            messages (int): Chat turns answered.
            prompt_tokens (int):
            response_styles (MetricsResponseStyles):
            skip_reasons (MetricsSkipReasons):
            triage_ms (Percentiles): The median, 95th percentile and mean of a stage's time, in ms (`null` without data).
            avg_batch_size (float | None | Unset): Messages per extraction call, and the adaptive threshold the turns saw.
            avg_batch_threshold (float | None | Unset):
            avg_context_tokens (float | None | Unset):
            avg_memories_used (float | None | Unset):
            cost_per_message (float | None | Unset):
            dossier_use_rate (float | None | Unset): Share of turns answered with the compiled dossier.
            error_rate (float | None | Unset): failed / (answered + failed).
            extraction_rate (float | None | Unset): Share of turns that went through extraction.
            facts_per_extraction (float | None | Unset): Facts (and insights) stored per extraction call.
            triage_skip_rate (float | None | Unset): Share of turns whose triage the pre-filter skipped, and why.
     """

    channels: MetricsChannels
    chat_cost_usd: float
    chat_models: MetricsChatModels
    completion_tokens: int
    context_ms: Percentiles
    dedup: MetricsDedup
    failed_replies: int
    finish_reasons: MetricsFinishReasons
    generation_ms: Percentiles
    intents: MetricsIntents
    latency_ms: Percentiles
    messages: int
    prompt_tokens: int
    response_styles: MetricsResponseStyles
    skip_reasons: MetricsSkipReasons
    triage_ms: Percentiles
    avg_batch_size: float | None | Unset = UNSET
    avg_batch_threshold: float | None | Unset = UNSET
    avg_context_tokens: float | None | Unset = UNSET
    avg_memories_used: float | None | Unset = UNSET
    cost_per_message: float | None | Unset = UNSET
    dossier_use_rate: float | None | Unset = UNSET
    error_rate: float | None | Unset = UNSET
    extraction_rate: float | None | Unset = UNSET
    facts_per_extraction: float | None | Unset = UNSET
    triage_skip_rate: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.metrics_channels import MetricsChannels # noqa: PLC0415
        from ..models.metrics_chat_models import MetricsChatModels # noqa: PLC0415
        from ..models.metrics_dedup import MetricsDedup # noqa: PLC0415
        from ..models.metrics_finish_reasons import MetricsFinishReasons # noqa: PLC0415
        from ..models.metrics_intents import MetricsIntents # noqa: PLC0415
        from ..models.metrics_response_styles import MetricsResponseStyles # noqa: PLC0415
        from ..models.metrics_skip_reasons import MetricsSkipReasons # noqa: PLC0415
        from ..models.percentiles import Percentiles # noqa: PLC0415
        channels = self.channels.to_dict()

        chat_cost_usd = self.chat_cost_usd

        chat_models = self.chat_models.to_dict()

        completion_tokens = self.completion_tokens

        context_ms = self.context_ms.to_dict()

        dedup = self.dedup.to_dict()

        failed_replies = self.failed_replies

        finish_reasons = self.finish_reasons.to_dict()

        generation_ms = self.generation_ms.to_dict()

        intents = self.intents.to_dict()

        latency_ms = self.latency_ms.to_dict()

        messages = self.messages

        prompt_tokens = self.prompt_tokens

        response_styles = self.response_styles.to_dict()

        skip_reasons = self.skip_reasons.to_dict()

        triage_ms = self.triage_ms.to_dict()

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

        avg_memories_used: float | None | Unset
        if isinstance(self.avg_memories_used, Unset):
            avg_memories_used = UNSET
        else:
            avg_memories_used = self.avg_memories_used

        cost_per_message: float | None | Unset
        if isinstance(self.cost_per_message, Unset):
            cost_per_message = UNSET
        else:
            cost_per_message = self.cost_per_message

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

        facts_per_extraction: float | None | Unset
        if isinstance(self.facts_per_extraction, Unset):
            facts_per_extraction = UNSET
        else:
            facts_per_extraction = self.facts_per_extraction

        triage_skip_rate: float | None | Unset
        if isinstance(self.triage_skip_rate, Unset):
            triage_skip_rate = UNSET
        else:
            triage_skip_rate = self.triage_skip_rate


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "channels": channels,
            "chat_cost_usd": chat_cost_usd,
            "chat_models": chat_models,
            "completion_tokens": completion_tokens,
            "context_ms": context_ms,
            "dedup": dedup,
            "failed_replies": failed_replies,
            "finish_reasons": finish_reasons,
            "generation_ms": generation_ms,
            "intents": intents,
            "latency_ms": latency_ms,
            "messages": messages,
            "prompt_tokens": prompt_tokens,
            "response_styles": response_styles,
            "skip_reasons": skip_reasons,
            "triage_ms": triage_ms,
        })
        if avg_batch_size is not UNSET:
            field_dict["avg_batch_size"] = avg_batch_size
        if avg_batch_threshold is not UNSET:
            field_dict["avg_batch_threshold"] = avg_batch_threshold
        if avg_context_tokens is not UNSET:
            field_dict["avg_context_tokens"] = avg_context_tokens
        if avg_memories_used is not UNSET:
            field_dict["avg_memories_used"] = avg_memories_used
        if cost_per_message is not UNSET:
            field_dict["cost_per_message"] = cost_per_message
        if dossier_use_rate is not UNSET:
            field_dict["dossier_use_rate"] = dossier_use_rate
        if error_rate is not UNSET:
            field_dict["error_rate"] = error_rate
        if extraction_rate is not UNSET:
            field_dict["extraction_rate"] = extraction_rate
        if facts_per_extraction is not UNSET:
            field_dict["facts_per_extraction"] = facts_per_extraction
        if triage_skip_rate is not UNSET:
            field_dict["triage_skip_rate"] = triage_skip_rate

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metrics_channels import MetricsChannels # noqa: PLC0415
        from ..models.metrics_chat_models import MetricsChatModels # noqa: PLC0415
        from ..models.metrics_dedup import MetricsDedup # noqa: PLC0415
        from ..models.metrics_finish_reasons import MetricsFinishReasons # noqa: PLC0415
        from ..models.metrics_intents import MetricsIntents # noqa: PLC0415
        from ..models.metrics_response_styles import MetricsResponseStyles # noqa: PLC0415
        from ..models.metrics_skip_reasons import MetricsSkipReasons # noqa: PLC0415
        from ..models.percentiles import Percentiles # noqa: PLC0415
        d = dict(src_dict)
        channels = MetricsChannels.from_dict(d.pop("channels"))




        chat_cost_usd = d.pop("chat_cost_usd")

        chat_models = MetricsChatModels.from_dict(d.pop("chat_models"))




        completion_tokens = d.pop("completion_tokens")

        context_ms = Percentiles.from_dict(d.pop("context_ms"))




        dedup = MetricsDedup.from_dict(d.pop("dedup"))




        failed_replies = d.pop("failed_replies")

        finish_reasons = MetricsFinishReasons.from_dict(d.pop("finish_reasons"))




        generation_ms = Percentiles.from_dict(d.pop("generation_ms"))




        intents = MetricsIntents.from_dict(d.pop("intents"))




        latency_ms = Percentiles.from_dict(d.pop("latency_ms"))




        messages = d.pop("messages")

        prompt_tokens = d.pop("prompt_tokens")

        response_styles = MetricsResponseStyles.from_dict(d.pop("response_styles"))




        skip_reasons = MetricsSkipReasons.from_dict(d.pop("skip_reasons"))




        triage_ms = Percentiles.from_dict(d.pop("triage_ms"))




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


        def _parse_avg_memories_used(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_memories_used = _parse_avg_memories_used(d.pop("avg_memories_used", UNSET))


        def _parse_cost_per_message(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        cost_per_message = _parse_cost_per_message(d.pop("cost_per_message", UNSET))


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


        def _parse_facts_per_extraction(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        facts_per_extraction = _parse_facts_per_extraction(d.pop("facts_per_extraction", UNSET))


        def _parse_triage_skip_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        triage_skip_rate = _parse_triage_skip_rate(d.pop("triage_skip_rate", UNSET))


        metrics = cls(
            channels=channels,
            chat_cost_usd=chat_cost_usd,
            chat_models=chat_models,
            completion_tokens=completion_tokens,
            context_ms=context_ms,
            dedup=dedup,
            failed_replies=failed_replies,
            finish_reasons=finish_reasons,
            generation_ms=generation_ms,
            intents=intents,
            latency_ms=latency_ms,
            messages=messages,
            prompt_tokens=prompt_tokens,
            response_styles=response_styles,
            skip_reasons=skip_reasons,
            triage_ms=triage_ms,
            avg_batch_size=avg_batch_size,
            avg_batch_threshold=avg_batch_threshold,
            avg_context_tokens=avg_context_tokens,
            avg_memories_used=avg_memories_used,
            cost_per_message=cost_per_message,
            dossier_use_rate=dossier_use_rate,
            error_rate=error_rate,
            extraction_rate=extraction_rate,
            facts_per_extraction=facts_per_extraction,
            triage_skip_rate=triage_skip_rate,
        )


        metrics.additional_properties = d
        return metrics

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
