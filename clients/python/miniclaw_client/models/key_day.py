from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="KeyDay")



@_attrs_define
class KeyDay:
    """ One UTC day of a key's model calls.

        Attributes:
            calls (int):
            completion_tokens (int):
            cost_usd (float):
            day (datetime.date):
            errors (int):
            prompt_tokens (int):
     """

    calls: int
    completion_tokens: int
    cost_usd: float
    day: datetime.date
    errors: int
    prompt_tokens: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        calls = self.calls

        completion_tokens = self.completion_tokens

        cost_usd = self.cost_usd

        day = self.day.isoformat()

        errors = self.errors

        prompt_tokens = self.prompt_tokens


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls": calls,
            "completion_tokens": completion_tokens,
            "cost_usd": cost_usd,
            "day": day,
            "errors": errors,
            "prompt_tokens": prompt_tokens,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        calls = d.pop("calls")

        completion_tokens = d.pop("completion_tokens")

        cost_usd = d.pop("cost_usd")

        day = datetime.date.fromisoformat(d.pop("day"))




        errors = d.pop("errors")

        prompt_tokens = d.pop("prompt_tokens")

        key_day = cls(
            calls=calls,
            completion_tokens=completion_tokens,
            cost_usd=cost_usd,
            day=day,
            errors=errors,
            prompt_tokens=prompt_tokens,
        )


        key_day.additional_properties = d
        return key_day

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
