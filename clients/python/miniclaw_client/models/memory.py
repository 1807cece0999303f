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






T = TypeVar("T", bound="Memory")



@_attrs_define
class Memory:
    """ One memory as the API shows it (the vector itself stays in the database).

        Attributes:
            access_count (int): How often search and chat retrieved it (X2's access frequency).
            agent_id (UUID):
            category (str): identity, goal, preference, interest, context, insight, knowledge, ...
            confidence (float):
            content (str):
            created_at (datetime.datetime):
            id (UUID):
            importance (float): 0–10, default 5.
            mention_count (int):
            occurred_at (datetime.datetime): When it was said or happened (default: when it was stored); time filters and
                relative
                dates in queries ("last week") use it.
            pinned (bool):
            shareable (bool): The owner marked it shareable: the feed digest may write from it (nothing else is ever
                put in a post).
            source (MemorySource): Where a memory came from (SPEC R1).
            status (MemoryStatus): A memory's lifecycle status (SPEC R5, X2): search and chat use `active` and `dormant`
                memories (prominence above 0.5, and 0.1–0.5); `archived` ones are set aside, restorable.
            updated_at (datetime.datetime):
            embedding_model (None | str | Unset): The model of the stored vector; `null` while the memory waits to be
                embedded.
            end_user (None | str | Unset): The end user it was learned from (SPEC H1): only they and the owner see it.
                `null`: the
                agent's own knowledge, shared with everyone who talks to it.
            expires_at (datetime.datetime | None | Unset):
            faded_at (datetime.datetime | None | Unset): When forgetting archived it (X2): such memories are pruned after
                `lifecycle::PRUNE_AFTER_DAYS`.
            invalid_at (datetime.datetime | None | Unset): Set when a newer fact contradicted this one; such memories stay
                in history only.
            knowledge_id (None | Unset | UUID):
            last_mentioned_at (datetime.datetime | None | Unset):
            last_retrieved_at (datetime.datetime | None | Unset):
            source_url (None | str | Unset):
            title (None | str | Unset):
     """

    access_count: int
    agent_id: UUID
    category: str
    confidence: float
    content: str
    created_at: datetime.datetime
    id: UUID
    importance: float
    mention_count: int
    occurred_at: datetime.datetime
    pinned: bool
    shareable: bool
    source: MemorySource
    status: MemoryStatus
    updated_at: datetime.datetime
    embedding_model: None | str | Unset = UNSET
    end_user: None | str | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    faded_at: datetime.datetime | None | Unset = UNSET
    invalid_at: datetime.datetime | None | Unset = UNSET
    knowledge_id: None | Unset | UUID = UNSET
    last_mentioned_at: datetime.datetime | None | Unset = UNSET
    last_retrieved_at: datetime.datetime | None | Unset = UNSET
    source_url: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        access_count = self.access_count

        agent_id = str(self.agent_id)

        category = self.category

        confidence = self.confidence

        content = self.content

        created_at = self.created_at.isoformat()

        id = str(self.id)

        importance = self.importance

        mention_count = self.mention_count

        occurred_at = self.occurred_at.isoformat()

        pinned = self.pinned

        shareable = self.shareable

        source = self.source.value

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        embedding_model: None | str | Unset
        if isinstance(self.embedding_model, Unset):
            embedding_model = UNSET
        else:
            embedding_model = self.embedding_model

        end_user: None | str | Unset
        if isinstance(self.end_user, Unset):
            end_user = UNSET
        else:
            end_user = self.end_user

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
        field_dict.update(self.additional_properties)
        field_dict.update({
            "access_count": access_count,
            "agent_id": agent_id,
            "category": category,
            "confidence": confidence,
            "content": content,
            "created_at": created_at,
            "id": id,
            "importance": importance,
            "mention_count": mention_count,
            "occurred_at": occurred_at,
            "pinned": pinned,
            "shareable": shareable,
            "source": source,
            "status": status,
            "updated_at": updated_at,
        })
        if embedding_model is not UNSET:
            field_dict["embedding_model"] = embedding_model
        if end_user is not UNSET:
            field_dict["end_user"] = end_user
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if faded_at is not UNSET:
            field_dict["faded_at"] = faded_at
        if invalid_at is not UNSET:
            field_dict["invalid_at"] = invalid_at
        if knowledge_id is not UNSET:
            field_dict["knowledge_id"] = knowledge_id
        if last_mentioned_at is not UNSET:
            field_dict["last_mentioned_at"] = last_mentioned_at
        if last_retrieved_at is not UNSET:
            field_dict["last_retrieved_at"] = last_retrieved_at
        if source_url is not UNSET:
            field_dict["source_url"] = source_url
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        access_count = d.pop("access_count")

        agent_id = UUID(d.pop("agent_id"))




        category = d.pop("category")

        confidence = d.pop("confidence")

        content = d.pop("content")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        importance = d.pop("importance")

        mention_count = d.pop("mention_count")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))




        pinned = d.pop("pinned")

        shareable = d.pop("shareable")

        source = MemorySource(d.pop("source"))




        status = MemoryStatus(d.pop("status"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_embedding_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        embedding_model = _parse_embedding_model(d.pop("embedding_model", UNSET))


        def _parse_end_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_user = _parse_end_user(d.pop("end_user", UNSET))


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


        memory = cls(
            access_count=access_count,
            agent_id=agent_id,
            category=category,
            confidence=confidence,
            content=content,
            created_at=created_at,
            id=id,
            importance=importance,
            mention_count=mention_count,
            occurred_at=occurred_at,
            pinned=pinned,
            shareable=shareable,
            source=source,
            status=status,
            updated_at=updated_at,
            embedding_model=embedding_model,
            end_user=end_user,
            expires_at=expires_at,
            faded_at=faded_at,
            invalid_at=invalid_at,
            knowledge_id=knowledge_id,
            last_mentioned_at=last_mentioned_at,
            last_retrieved_at=last_retrieved_at,
            source_url=source_url,
            title=title,
        )


        memory.additional_properties = d
        return memory

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
