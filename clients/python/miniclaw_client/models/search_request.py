from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.search_filters import SearchFilters





T = TypeVar("T", bound="SearchRequest")



@_attrs_define
class SearchRequest:
    """ 
        Attributes:
            query (str):
            filters (SearchFilters | Unset):
            limit (int | None | Unset): 1–50, default 10.
            rerank (bool | Unset): Rerank with the `rerank` model role over a 4x over-fetch (default false).
            traversal (bool | Unset): Follow the names the best candidates mention (bridging, multi-hop) and the agent's
                learned traversal graph (X5) from them (default true).
     """

    query: str
    filters: SearchFilters | Unset = UNSET
    limit: int | None | Unset = UNSET
    rerank: bool | Unset = UNSET
    traversal: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.search_filters import SearchFilters # noqa: PLC0415
        query = self.query

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        limit: int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        rerank = self.rerank

        traversal = self.traversal


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "query": query,
        })
        if filters is not UNSET:
            field_dict["filters"] = filters
        if limit is not UNSET:
            field_dict["limit"] = limit
        if rerank is not UNSET:
            field_dict["rerank"] = rerank
        if traversal is not UNSET:
            field_dict["traversal"] = traversal

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_filters import SearchFilters # noqa: PLC0415
        d = dict(src_dict)
        query = d.pop("query")

        _filters = d.pop("filters", UNSET)
        filters: SearchFilters | Unset
        if isinstance(_filters,  Unset):
            filters = UNSET
        else:
            filters = SearchFilters.from_dict(_filters)




        def _parse_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))


        rerank = d.pop("rerank", UNSET)

        traversal = d.pop("traversal", UNSET)

        search_request = cls(
            query=query,
            filters=filters,
            limit=limit,
            rerank=rerank,
            traversal=traversal,
        )

        return search_request

