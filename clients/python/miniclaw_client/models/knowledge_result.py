from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.memory import Memory





T = TypeVar("T", bound="KnowledgeResult")



@_attrs_define
class KnowledgeResult:
    """ 
        Attributes:
            cap (int):
            chunks (list[Memory]):
            entries (int): Knowledge entries the agent now has, and the cap.
            knowledge_id (UUID):
            source_url (None | str | Unset):
            title (None | str | Unset):
     """

    cap: int
    chunks: list[Memory]
    entries: int
    knowledge_id: UUID
    source_url: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory import Memory # noqa: PLC0415
        cap = self.cap

        chunks = []
        for chunks_item_data in self.chunks:
            chunks_item = chunks_item_data.to_dict()
            chunks.append(chunks_item)



        entries = self.entries

        knowledge_id = str(self.knowledge_id)

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
            "cap": cap,
            "chunks": chunks,
            "entries": entries,
            "knowledge_id": knowledge_id,
        })
        if source_url is not UNSET:
            field_dict["source_url"] = source_url
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory # noqa: PLC0415
        d = dict(src_dict)
        cap = d.pop("cap")

        chunks = []
        _chunks = d.pop("chunks")
        for chunks_item_data in (_chunks):
            chunks_item = Memory.from_dict(chunks_item_data)



            chunks.append(chunks_item)


        entries = d.pop("entries")

        knowledge_id = UUID(d.pop("knowledge_id"))




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


        knowledge_result = cls(
            cap=cap,
            chunks=chunks,
            entries=entries,
            knowledge_id=knowledge_id,
            source_url=source_url,
            title=title,
        )


        knowledge_result.additional_properties = d
        return knowledge_result

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
