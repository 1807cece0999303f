from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.memory import Memory
  from ..models.version_out import VersionOut





T = TypeVar("T", bound="MemoryOfPerson")



@_attrs_define
class MemoryOfPerson:
    """ One memory learned from the end user, with every version of it.

        Attributes:
            history (list[VersionOut]):
            memory (Memory): One memory as the API shows it (the vector itself stays in the database).
     """

    history: list[VersionOut]
    memory: Memory
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.memory import Memory # noqa: PLC0415
        from ..models.version_out import VersionOut # noqa: PLC0415
        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)



        memory = self.memory.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "history": history,
            "memory": memory,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory # noqa: PLC0415
        from ..models.version_out import VersionOut # noqa: PLC0415
        d = dict(src_dict)
        history = []
        _history = d.pop("history")
        for history_item_data in (_history):
            history_item = VersionOut.from_dict(history_item_data)



            history.append(history_item)


        memory = Memory.from_dict(d.pop("memory"))




        memory_of_person = cls(
            history=history,
            memory=memory,
        )


        memory_of_person.additional_properties = d
        return memory_of_person

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
