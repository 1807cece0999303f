from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.path_report import PathReport
  from ..models.traversal_report import TraversalReport
  from ..models.window import Window





T = TypeVar("T", bound="Explanation")



@_attrs_define
class Explanation:
    """ What was searched and how (R8).

        Attributes:
            activation (PathReport):
            agent_id (UUID):
            bm25 (PathReport):
            bridge (PathReport):
            categories (list[str]):
            embedding_model (str):
            formula (str): `score::HYBRID_FORMULA`, or a traversal path score when higher
                (then `0.4*hybrid + 0.6*llm` when reranked).
            history (PathReport):
            live_memories (int): Live memories the agent has (any filter aside).
            query_terms (list[str]):
            reranked (bool):
            sources (list[str]):
            statuses (list[str]):
            traversal (TraversalReport): What learned traversal did (R8, X5).
            vector (PathReport):
            empty_reason (None | str | Unset): For an empty result: why.
            from_ (datetime.datetime | None | Unset):
            rerank_note (None | str | Unset):
            time_window (None | Unset | Window):
            to (datetime.datetime | None | Unset):
     """

    activation: PathReport
    agent_id: UUID
    bm25: PathReport
    bridge: PathReport
    categories: list[str]
    embedding_model: str
    formula: str
    history: PathReport
    live_memories: int
    query_terms: list[str]
    reranked: bool
    sources: list[str]
    statuses: list[str]
    traversal: TraversalReport
    vector: PathReport
    empty_reason: None | str | Unset = UNSET
    from_: datetime.datetime | None | Unset = UNSET
    rerank_note: None | str | Unset = UNSET
    time_window: None | Unset | Window = UNSET
    to: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.path_report import PathReport # noqa: PLC0415
        from ..models.traversal_report import TraversalReport # noqa: PLC0415
        from ..models.window import Window # noqa: PLC0415
        activation = self.activation.to_dict()

        agent_id = str(self.agent_id)

        bm25 = self.bm25.to_dict()

        bridge = self.bridge.to_dict()

        categories = self.categories



        embedding_model = self.embedding_model

        formula = self.formula

        history = self.history.to_dict()

        live_memories = self.live_memories

        query_terms = self.query_terms



        reranked = self.reranked

        sources = self.sources



        statuses = self.statuses



        traversal = self.traversal.to_dict()

        vector = self.vector.to_dict()

        empty_reason: None | str | Unset
        if isinstance(self.empty_reason, Unset):
            empty_reason = UNSET
        else:
            empty_reason = self.empty_reason

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        elif isinstance(self.from_, datetime.datetime):
            from_ = self.from_.isoformat()
        else:
            from_ = self.from_

        rerank_note: None | str | Unset
        if isinstance(self.rerank_note, Unset):
            rerank_note = UNSET
        else:
            rerank_note = self.rerank_note

        time_window: dict[str, Any] | None | Unset
        if isinstance(self.time_window, Unset):
            time_window = UNSET
        elif isinstance(self.time_window, Window):
            time_window = self.time_window.to_dict()
        else:
            time_window = self.time_window

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        elif isinstance(self.to, datetime.datetime):
            to = self.to.isoformat()
        else:
            to = self.to


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "activation": activation,
            "agent_id": agent_id,
            "bm25": bm25,
            "bridge": bridge,
            "categories": categories,
            "embedding_model": embedding_model,
            "formula": formula,
            "history": history,
            "live_memories": live_memories,
            "query_terms": query_terms,
            "reranked": reranked,
            "sources": sources,
            "statuses": statuses,
            "traversal": traversal,
            "vector": vector,
        })
        if empty_reason is not UNSET:
            field_dict["empty_reason"] = empty_reason
        if from_ is not UNSET:
            field_dict["from"] = from_
        if rerank_note is not UNSET:
            field_dict["rerank_note"] = rerank_note
        if time_window is not UNSET:
            field_dict["time_window"] = time_window
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.path_report import PathReport # noqa: PLC0415
        from ..models.traversal_report import TraversalReport # noqa: PLC0415
        from ..models.window import Window # noqa: PLC0415
        d = dict(src_dict)
        activation = PathReport.from_dict(d.pop("activation"))




        agent_id = UUID(d.pop("agent_id"))




        bm25 = PathReport.from_dict(d.pop("bm25"))




        bridge = PathReport.from_dict(d.pop("bridge"))




        categories = cast(list[str], d.pop("categories"))


        embedding_model = d.pop("embedding_model")

        formula = d.pop("formula")

        history = PathReport.from_dict(d.pop("history"))




        live_memories = d.pop("live_memories")

        query_terms = cast(list[str], d.pop("query_terms"))


        reranked = d.pop("reranked")

        sources = cast(list[str], d.pop("sources"))


        statuses = cast(list[str], d.pop("statuses"))


        traversal = TraversalReport.from_dict(d.pop("traversal"))




        vector = PathReport.from_dict(d.pop("vector"))




        def _parse_empty_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        empty_reason = _parse_empty_reason(d.pop("empty_reason", UNSET))


        def _parse_from_(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_type_0 = datetime.datetime.fromisoformat(data)



                return from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))


        def _parse_rerank_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rerank_note = _parse_rerank_note(d.pop("rerank_note", UNSET))


        def _parse_time_window(data: object) -> None | Unset | Window:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                time_window_type_1 = Window.from_dict(data)



                return time_window_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | Window, data)

        time_window = _parse_time_window(d.pop("time_window", UNSET))


        def _parse_to(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_type_0 = datetime.datetime.fromisoformat(data)



                return to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        to = _parse_to(d.pop("to", UNSET))


        explanation = cls(
            activation=activation,
            agent_id=agent_id,
            bm25=bm25,
            bridge=bridge,
            categories=categories,
            embedding_model=embedding_model,
            formula=formula,
            history=history,
            live_memories=live_memories,
            query_terms=query_terms,
            reranked=reranked,
            sources=sources,
            statuses=statuses,
            traversal=traversal,
            vector=vector,
            empty_reason=empty_reason,
            from_=from_,
            rerank_note=rerank_note,
            time_window=time_window,
            to=to,
        )


        explanation.additional_properties = d
        return explanation

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
