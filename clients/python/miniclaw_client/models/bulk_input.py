from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.memory_input import MemoryInput





T = TypeVar("T", bound="BulkInput")



@_attrs_define
class BulkInput:
    """ 
        Attributes:
            memories (list[MemoryInput]): 1–500 memories, stored all or none.
     """

    memories: list[MemoryInput]





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory_input import MemoryInput # noqa: PLC0415
        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "memories": memories,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_input import MemoryInput # noqa: PLC0415
        d = dict(src_dict)
        memories = []
        _memories = d.pop("memories")
        for memories_item_data in (_memories):
            memories_item = MemoryInput.from_dict(memories_item_data)



            memories.append(memories_item)


        bulk_input = cls(
            memories=memories,
        )

        return bulk_input

