from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.memory_source import MemorySource
from ..models.memory_status import MemoryStatus
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.portable_version import PortableVersion





T = TypeVar("T", bound="PortableMemory")



@_attrs_define
class PortableMemory:
    """ One memory in a bundle.

        Attributes:
            category (str):
            confidence (float):
            content (str):
            created_at (datetime.datetime):
            id (UUID): The memory's id where it was exported; relations name memories by it. Unique in a bundle.
            importance (float):
            occurred_at (datetime.datetime):
            source (MemorySource): Where a memory came from (SPEC R1).
            status (MemoryStatus): A memory's lifecycle status (SPEC R5, X2): search and chat use `active` and `dormant`
                memories (prominence above 0.5, and 0.1–0.5); `archived` ones are set aside, restorable.
            updated_at (datetime.datetime):
            access_count (int | Unset):
            expires_at (datetime.datetime | None | Unset):
            faded_at (datetime.datetime | None | Unset):
            history (list[PortableVersion] | Unset): Its versions, oldest first: each change, who made it and why, and the
                memory as it was.
            invalid_at (datetime.datetime | None | Unset):
            knowledge_id (None | Unset | UUID): Chunks of one knowledge entry share it.
            last_mentioned_at (datetime.datetime | None | Unset):
            last_retrieved_at (datetime.datetime | None | Unset):
            mention_count (int | Unset):
            pinned (bool | Unset):
            shareable (bool | Unset):
            source_url (None | str | Unset):
            title (None | str | Unset):
     """

    category: str
    confidence: float
    content: str
    created_at: datetime.datetime
    id: UUID
    importance: float
    occurred_at: datetime.datetime
    source: MemorySource
    status: MemoryStatus
    updated_at: datetime.datetime
    access_count: int | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    faded_at: datetime.datetime | None | Unset = UNSET
    history: list[PortableVersion] | Unset = UNSET
    invalid_at: datetime.datetime | None | Unset = UNSET
    knowledge_id: None | Unset | UUID = UNSET
    last_mentioned_at: datetime.datetime | None | Unset = UNSET
    last_retrieved_at: datetime.datetime | None | Unset = UNSET
    mention_count: int | Unset = UNSET
    pinned: bool | Unset = UNSET
    shareable: bool | Unset = UNSET
    source_url: None | str | Unset = UNSET
    title: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.portable_version import PortableVersion # noqa: PLC0415
        category = self.category

        confidence = self.confidence

        content = self.content

        created_at = self.created_at.isoformat()

        id = str(self.id)

        importance = self.importance

        occurred_at = self.occurred_at.isoformat()

        source = self.source.value

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        access_count = self.access_count

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        faded_at: None | str | Unset
        if isinstance(self.faded_at, Unset):
            faded_at = UNSET
        elif isinstance(self.faded_at, datetime.datetime):
            faded_at = self.faded_at.isoformat()
        else:
            faded_at = self.faded_at

        history: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.history, Unset):
            history = []
            for history_item_data in self.history:
                history_item = history_item_data.to_dict()
                history.append(history_item)



        invalid_at: None | str | Unset
        if isinstance(self.invalid_at, Unset):
            invalid_at = UNSET
        elif isinstance(self.invalid_at, datetime.datetime):
            invalid_at = self.invalid_at.isoformat()
        else:
            invalid_at = self.invalid_at

        knowledge_id: None | str | Unset
        if isinstance(self.knowledge_id, Unset):
            knowledge_id = UNSET
        elif isinstance(self.knowledge_id, UUID):
            knowledge_id = str(self.knowledge_id)
        else:
            knowledge_id = self.knowledge_id

        last_mentioned_at: None | str | Unset
        if isinstance(self.last_mentioned_at, Unset):
            last_mentioned_at = UNSET
        elif isinstance(self.last_mentioned_at, datetime.datetime):
            last_mentioned_at = self.last_mentioned_at.isoformat()
        else:
            last_mentioned_at = self.last_mentioned_at

        last_retrieved_at: None | str | Unset
        if isinstance(self.last_retrieved_at, Unset):
            last_retrieved_at = UNSET
        elif isinstance(self.last_retrieved_at, datetime.datetime):
            last_retrieved_at = self.last_retrieved_at.isoformat()
        else:
            last_retrieved_at = self.last_retrieved_at

        mention_count = self.mention_count

        pinned = self.pinned

        shareable = self.shareable

        source_url: None | str | Unset
        if isinstance(self.source_url, Unset):
            source_url = UNSET
        else:
            source_url = self.source_url

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "category": category,
            "confidence": confidence,
            "content": content,
            "created_at": created_at,
            "id": id,
            "importance": importance,
            "occurred_at": occurred_at,
            "source": source,
            "status": status,
            "updated_at": updated_at,
        })
        if access_count is not UNSET:
            field_dict["access_count"] = access_count
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if faded_at is not UNSET:
            field_dict["faded_at"] = faded_at
        if history is not UNSET:
            field_dict["history"] = history
        if invalid_at is not UNSET:
            field_dict["invalid_at"] = invalid_at
        if knowledge_id is not UNSET:
            field_dict["knowledge_id"] = knowledge_id
        if last_mentioned_at is not UNSET:
            field_dict["last_mentioned_at"] = last_mentioned_at
        if last_retrieved_at is not UNSET:
            field_dict["last_retrieved_at"] = last_retrieved_at
        if mention_count is not UNSET:
            field_dict["mention_count"] = mention_count
        if pinned is not UNSET:
            field_dict["pinned"] = pinned
        if shareable is not UNSET:
            field_dict["shareable"] = shareable
        if source_url is not UNSET:
            field_dict["source_url"] = source_url
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portable_version import PortableVersion # noqa: PLC0415
        d = dict(src_dict)
        category = d.pop("category")

        confidence = d.pop("confidence")

        content = d.pop("content")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        importance = d.pop("importance")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))




        source = MemorySource(d.pop("source"))




        status = MemoryStatus(d.pop("status"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        access_count = d.pop("access_count", UNSET)

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


        def _parse_faded_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                faded_at_type_0 = datetime.datetime.fromisoformat(data)



                return faded_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        faded_at = _parse_faded_at(d.pop("faded_at", UNSET))


        _history = d.pop("history", UNSET)
        history: list[PortableVersion] | Unset = UNSET
        if _history is not UNSET:
            history = []
            for history_item_data in _history:
                history_item = PortableVersion.from_dict(history_item_data)



                history.append(history_item)


        def _parse_invalid_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                invalid_at_type_0 = datetime.datetime.fromisoformat(data)



                return invalid_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        invalid_at = _parse_invalid_at(d.pop("invalid_at", UNSET))


        def _parse_knowledge_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                knowledge_id_type_0 = UUID(data)



                return knowledge_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        knowledge_id = _parse_knowledge_id(d.pop("knowledge_id", UNSET))


        def _parse_last_mentioned_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_mentioned_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_mentioned_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_mentioned_at = _parse_last_mentioned_at(d.pop("last_mentioned_at", UNSET))


        def _parse_last_retrieved_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_retrieved_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_retrieved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_retrieved_at = _parse_last_retrieved_at(d.pop("last_retrieved_at", UNSET))


        mention_count = d.pop("mention_count", UNSET)

        pinned = d.pop("pinned", UNSET)

        shareable = d.pop("shareable", UNSET)

        def _parse_source_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_url = _parse_source_url(d.pop("source_url", UNSET))


        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        portable_memory = cls(
            category=category,
            confidence=confidence,
            content=content,
            created_at=created_at,
            id=id,
            importance=importance,
            occurred_at=occurred_at,
            source=source,
            status=status,
            updated_at=updated_at,
            access_count=access_count,
            expires_at=expires_at,
            faded_at=faded_at,
            history=history,
            invalid_at=invalid_at,
            knowledge_id=knowledge_id,
            last_mentioned_at=last_mentioned_at,
            last_retrieved_at=last_retrieved_at,
            mention_count=mention_count,
            pinned=pinned,
            shareable=shareable,
            source_url=source_url,
            title=title,
        )

        return portable_memory

