from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from uuid import UUID






T = TypeVar("T", bound="Hot")



@_attrs_define
class Hot:
    """ 
        Attributes:
            accesses (int):
            content (str):
            conversations (int):
            energy (float):
            memory_id (UUID):
     """

    accesses: int
    content: str
    conversations: int
    energy: float
    memory_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        accesses = self.accesses

        content = self.content

        conversations = self.conversations

        energy = self.energy

        memory_id = str(self.memory_id)


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accesses": accesses,
            "content": content,
            "conversations": conversations,
            "energy": energy,
            "memory_id": memory_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accesses = d.pop("accesses")

        content = d.pop("content")

        conversations = d.pop("conversations")

        energy = d.pop("energy")

        memory_id = UUID(d.pop("memory_id"))




        hot = cls(
            accesses=accesses,
            content=content,
            conversations=conversations,
            energy=energy,
            memory_id=memory_id,
        )


        hot.additional_properties = d
        return hot

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
