from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from uuid import UUID






T = TypeVar("T", bound="Model")



@_attrs_define
class Model:
    """ One agent as an OpenAI model.

        Attributes:
            created (int): When the agent was created (Unix seconds).
            id (UUID):
            name (str): The agent's name (extension).
            object_ (str): Always `model`.
            owned_by (str): Always `miniclaw`.
     """

    created: int
    id: UUID
    name: str
    object_: str
    owned_by: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created = self.created

        id = str(self.id)

        name = self.name

        object_ = self.object_

        owned_by = self.owned_by


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created": created,
            "id": id,
            "name": name,
            "object": object_,
            "owned_by": owned_by,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = d.pop("created")

        id = UUID(d.pop("id"))




        name = d.pop("name")

        object_ = d.pop("object")

        owned_by = d.pop("owned_by")

        model = cls(
            created=created,
            id=id,
            name=name,
            object_=object_,
            owned_by=owned_by,
        )


        model.additional_properties = d
        return model

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
