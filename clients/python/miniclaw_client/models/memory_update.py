from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="MemoryUpdate")



@_attrs_define
class MemoryUpdate:
    """ 
        Attributes:
            category (None | str | Unset):
            confidence (float | None | Unset):
            content (None | str | Unset):
            expires_at (datetime.datetime | None | Unset): `null` clears the expiry; absent leaves it.
            importance (float | None | Unset):
            pinned (bool | None | Unset): Pin or unpin.
            reason (None | str | Unset): Why, for the history.
            shareable (bool | None | Unset): Let the feed digest write from it (`true`), or keep it private (`false`, the
                default of
                every memory): the digest uses nothing else. The owner's alone to set (403 `owner_only`
                for a key).
            status (None | str | Unset): active, dormant, archived, deprecated
     """

    category: None | str | Unset = UNSET
    confidence: float | None | Unset = UNSET
    content: None | str | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    importance: float | None | Unset = UNSET
    pinned: bool | None | Unset = UNSET
    reason: None | str | Unset = UNSET
    shareable: bool | None | Unset = UNSET
    status: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        category: None | str | Unset
        if isinstance(self.category, Unset):
            category = UNSET
        else:
            category = self.category

        confidence: float | None | Unset
        if isinstance(self.confidence, Unset):
            confidence = UNSET
        else:
            confidence = self.confidence

        content: None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        else:
            content = self.content

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

        pinned: bool | None | Unset
        if isinstance(self.pinned, Unset):
            pinned = UNSET
        else:
            pinned = self.pinned

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        shareable: bool | None | Unset
        if isinstance(self.shareable, Unset):
            shareable = UNSET
        else:
            shareable = self.shareable

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        else:
            status = self.status


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if category is not UNSET:
            field_dict["category"] = category
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if content is not UNSET:
            field_dict["content"] = content
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if importance is not UNSET:
            field_dict["importance"] = importance
        if pinned is not UNSET:
            field_dict["pinned"] = pinned
        if reason is not UNSET:
            field_dict["reason"] = reason
        if shareable is not UNSET:
            field_dict["shareable"] = shareable
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_category(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        category = _parse_category(d.pop("category", UNSET))


        def _parse_confidence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        confidence = _parse_confidence(d.pop("confidence", UNSET))


        def _parse_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))


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


        def _parse_pinned(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        pinned = _parse_pinned(d.pop("pinned", UNSET))


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        def _parse_shareable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        shareable = _parse_shareable(d.pop("shareable", UNSET))


        def _parse_status(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status = _parse_status(d.pop("status", UNSET))


        memory_update = cls(
            category=category,
            confidence=confidence,
            content=content,
            expires_at=expires_at,
            importance=importance,
            pinned=pinned,
            reason=reason,
            shareable=shareable,
            status=status,
        )

        return memory_update

