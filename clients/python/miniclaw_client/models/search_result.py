from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.memory import Memory
  from ..models.signals import Signals





T = TypeVar("T", bound="SearchResult")



@_attrs_define
class SearchResult:
    """ 
        Attributes:
            found_by (list[str]): Which paths found it: `bm25`, `vector`, `activation` (related to a better candidate),
                `bridge` (named by a better candidate and similar to the question read with it),
                `history` (a value a better candidate replaced, for a question about the past),
                `traversal` (reached by learned traversal from a better candidate).
            memory (Memory): One memory as the API shows it (the vector itself stays in the database).
            score (float):
            signals (Signals): Each signal of a result, normalised to [0, 1], and what it contributed.
     """

    found_by: list[str]
    memory: Memory
    score: float
    signals: Signals
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory import Memory # noqa: PLC0415
        from ..models.signals import Signals # noqa: PLC0415
        found_by = self.found_by



        memory = self.memory.to_dict()

        score = self.score

        signals = self.signals.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "found_by": found_by,
            "memory": memory,
            "score": score,
            "signals": signals,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory # noqa: PLC0415
        from ..models.signals import Signals # noqa: PLC0415
        d = dict(src_dict)
        found_by = cast(list[str], d.pop("found_by"))


        memory = Memory.from_dict(d.pop("memory"))




        score = d.pop("score")

        signals = Signals.from_dict(d.pop("signals"))




        search_result = cls(
            found_by=found_by,
            memory=memory,
            score=score,
            signals=signals,
        )


        search_result.additional_properties = d
        return search_result

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
