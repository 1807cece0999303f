from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.remote_tool_input_schema import RemoteToolInputSchema





T = TypeVar("T", bound="RemoteTool")



@_attrs_define
class RemoteTool:
    """ A tool a server lists.

        Attributes:
            description (str):
            input_schema (RemoteToolInputSchema): The JSON Schema of its arguments.
            name (str):
            read_only (bool): The server says it changes nothing (`readOnlyHint`).
     """

    description: str
    input_schema: RemoteToolInputSchema
    name: str
    read_only: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.remote_tool_input_schema import RemoteToolInputSchema # noqa: PLC0415
        description = self.description

        input_schema = self.input_schema.to_dict()

        name = self.name

        read_only = self.read_only


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "description": description,
            "input_schema": input_schema,
            "name": name,
            "read_only": read_only,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.remote_tool_input_schema import RemoteToolInputSchema # noqa: PLC0415
        d = dict(src_dict)
        description = d.pop("description")

        input_schema = RemoteToolInputSchema.from_dict(d.pop("input_schema"))




        name = d.pop("name")

        read_only = d.pop("read_only")

        remote_tool = cls(
            description=description,
            input_schema=input_schema,
            name=name,
            read_only=read_only,
        )


        remote_tool.additional_properties = d
        return remote_tool

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
