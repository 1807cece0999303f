from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Timings")



@_attrs_define
class Timings:
    """ Milliseconds per stage of a turn (the model's own time is in `generation_ms`).

        Attributes:
            context_ms (float):
            embed_ms (float):
            generation_ms (float):
            setup_ms (float):
            triage_ms (float):
     """

    context_ms: float
    embed_ms: float
    generation_ms: float
    setup_ms: float
    triage_ms: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        context_ms = self.context_ms

        embed_ms = self.embed_ms

        generation_ms = self.generation_ms

        setup_ms = self.setup_ms

        triage_ms = self.triage_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "context_ms": context_ms,
            "embed_ms": embed_ms,
            "generation_ms": generation_ms,
            "setup_ms": setup_ms,
            "triage_ms": triage_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        context_ms = d.pop("context_ms")

        embed_ms = d.pop("embed_ms")

        generation_ms = d.pop("generation_ms")

        setup_ms = d.pop("setup_ms")

        triage_ms = d.pop("triage_ms")

        timings = cls(
            context_ms=context_ms,
            embed_ms=embed_ms,
            generation_ms=generation_ms,
            setup_ms=setup_ms,
            triage_ms=triage_ms,
        )


        timings.additional_properties = d
        return timings

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
