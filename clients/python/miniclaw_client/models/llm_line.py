from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="LlmLine")



@_attrs_define
class LlmLine:
    """ Model calls of one model, or of one call type (role).

        Attributes:
            calls (int):
            completion_tokens (int):
            cost_usd (float):
            errors (int):
            key (str): `provider/model`, or the role.
            prompt_tokens (int):
            avg_latency_ms (float | None | Unset):
     """

    calls: int
    completion_tokens: int
    cost_usd: float
    errors: int
    key: str
    prompt_tokens: int
    avg_latency_ms: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        calls = self.calls

        completion_tokens = self.completion_tokens

        cost_usd = self.cost_usd

        errors = self.errors

        key = self.key

        prompt_tokens = self.prompt_tokens

        avg_latency_ms: float | None | Unset
        if isinstance(self.avg_latency_ms, Unset):
            avg_latency_ms = UNSET
        else:
            avg_latency_ms = self.avg_latency_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls": calls,
            "completion_tokens": completion_tokens,
            "cost_usd": cost_usd,
            "errors": errors,
            "key": key,
            "prompt_tokens": prompt_tokens,
        })
        if avg_latency_ms is not UNSET:
            field_dict["avg_latency_ms"] = avg_latency_ms

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        calls = d.pop("calls")

        completion_tokens = d.pop("completion_tokens")

        cost_usd = d.pop("cost_usd")

        errors = d.pop("errors")

        key = d.pop("key")

        prompt_tokens = d.pop("prompt_tokens")

        def _parse_avg_latency_ms(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        avg_latency_ms = _parse_avg_latency_ms(d.pop("avg_latency_ms", UNSET))


        llm_line = cls(
            calls=calls,
            completion_tokens=completion_tokens,
            cost_usd=cost_usd,
            errors=errors,
            key=key,
            prompt_tokens=prompt_tokens,
            avg_latency_ms=avg_latency_ms,
        )


        llm_line.additional_properties = d
        return llm_line

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
