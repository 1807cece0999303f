from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Signals")



@_attrs_define
class Signals:
    """ Each signal of a result, normalised to [0, 1], and what it contributed.

        Attributes:
            activation (float): Spreading activation from the best candidates over the memory relations (X3), 0 when
                none reached it.
            bm25 (float): BM25 divided by the best BM25 among the candidates.
            bm25_raw (float):
            hybrid (float): `score::HYBRID_FORMULA` of the signals above.
            prominence (float): The memory's prominence (X2): age, access frequency and recency, importance.
            semantic (float): Cosine similarity (0 when the memory has no vector of the query's model).
            time (float): 1 when the memory was said or happened on the day the query names
                (`explanation.time_window`), 1/3 within a longer time it names (a week, a month), else 0.
            traversal (float): The best path score of a bridge (its seed's score, a hair less per hop) or of learned
                traversal (X5: a seed's score times the weights of the edges followed) to it; 0 when
                neither reached it.
            llm (float | None | Unset): The rerank model's score, when reranked.
     """

    activation: float
    bm25: float
    bm25_raw: float
    hybrid: float
    prominence: float
    semantic: float
    time: float
    traversal: float
    llm: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        activation = self.activation

        bm25 = self.bm25

        bm25_raw = self.bm25_raw

        hybrid = self.hybrid

        prominence = self.prominence

        semantic = self.semantic

        time = self.time

        traversal = self.traversal

        llm: float | None | Unset
        if isinstance(self.llm, Unset):
            llm = UNSET
        else:
            llm = self.llm


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "activation": activation,
            "bm25": bm25,
            "bm25_raw": bm25_raw,
            "hybrid": hybrid,
            "prominence": prominence,
            "semantic": semantic,
            "time": time,
            "traversal": traversal,
        })
        if llm is not UNSET:
            field_dict["llm"] = llm

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        activation = d.pop("activation")

        bm25 = d.pop("bm25")

        bm25_raw = d.pop("bm25_raw")

        hybrid = d.pop("hybrid")

        prominence = d.pop("prominence")

        semantic = d.pop("semantic")

        time = d.pop("time")

        traversal = d.pop("traversal")

        def _parse_llm(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        llm = _parse_llm(d.pop("llm", UNSET))


        signals = cls(
            activation=activation,
            bm25=bm25,
            bm25_raw=bm25_raw,
            hybrid=hybrid,
            prominence=prominence,
            semantic=semantic,
            time=time,
            traversal=traversal,
            llm=llm,
        )


        signals.additional_properties = d
        return signals

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
