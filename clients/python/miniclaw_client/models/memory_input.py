from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="MemoryInput")



@_attrs_define
class MemoryInput:
    """ 
        Attributes:
            category (str): identity, goal, preference, interest, context, insight, knowledge, ... (lower case).
            content (str):
            confidence (float | None | Unset): 0–1, default 0.8.
            expires_at (datetime.datetime | None | Unset):
            importance (float | None | Unset): 0–10, default 5.
            occurred_at (datetime.datetime | None | Unset): When it was said or happened (default now; at most a day ahead):
                an imported history
                keeps its dates, and time filters and "last week" in a query use them.
            pinned (bool | Unset):
     """

    category: str
    content: str
    confidence: float | None | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    importance: float | None | Unset = UNSET
    occurred_at: datetime.datetime | None | Unset = UNSET
    pinned: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        category = self.category

        content = self.content

        confidence: float | None | Unset
        if isinstance(self.confidence, Unset):
            confidence = UNSET
        else:
            confidence = self.confidence

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        importance: float | None | Unset
        if isinstance(self.importance, Unset):
            importance = UNSET
        else:
            importance = self.importance

        occurred_at: None | str | Unset
        if isinstance(self.occurred_at, Unset):
            occurred_at = UNSET
        elif isinstance(self.occurred_at, datetime.datetime):
            occurred_at = self.occurred_at.isoformat()
        else:
            occurred_at = self.occurred_at

        pinned = self.pinned


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "category": category,
            "content": content,
        })
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if importance is not UNSET:
            field_dict["importance"] = importance
        if occurred_at is not UNSET:
            field_dict["occurred_at"] = occurred_at
        if pinned is not UNSET:
            field_dict["pinned"] = pinned

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = d.pop("category")

        content = d.pop("content")

        def _parse_confidence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        confidence = _parse_confidence(d.pop("confidence", UNSET))


        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        def _parse_importance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        importance = _parse_importance(d.pop("importance", UNSET))


        def _parse_occurred_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                occurred_at_type_0 = datetime.datetime.fromisoformat(data)



                return occurred_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        occurred_at = _parse_occurred_at(d.pop("occurred_at", UNSET))


        pinned = d.pop("pinned", UNSET)

        memory_input = cls(
            category=category,
            content=content,
            confidence=confidence,
            expires_at=expires_at,
            importance=importance,
            occurred_at=occurred_at,
            pinned=pinned,
        )

        return memory_input

