from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.memory import Memory
  from ..models.related import Related





T = TypeVar("T", bound="Relations")



@_attrs_define
class Relations:
    """ A memory with its relations.

        Attributes:
            memory (Memory): One memory as the API shows it (the vector itself stays in the database).
            relations (list[Related]): Newest first, at most `RELATIONS_MAX`.
            truncated (bool): Whether the memory has more relations than were listed.
     """

    memory: Memory
    relations: list[Related]
    truncated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory import Memory # noqa: PLC0415
        from ..models.related import Related # noqa: PLC0415
        memory = self.memory.to_dict()

        relations = []
        for relations_item_data in self.relations:
            relations_item = relations_item_data.to_dict()
            relations.append(relations_item)



        truncated = self.truncated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "memory": memory,
            "relations": relations,
            "truncated": truncated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory # noqa: PLC0415
        from ..models.related import Related # noqa: PLC0415
        d = dict(src_dict)
        memory = Memory.from_dict(d.pop("memory"))




        relations = []
        _relations = d.pop("relations")
        for relations_item_data in (_relations):
            relations_item = Related.from_dict(relations_item_data)



            relations.append(relations_item)


        truncated = d.pop("truncated")

        relations = cls(
            memory=memory,
            relations=relations,
            truncated=truncated,
        )


        relations.additional_properties = d
        return relations

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
