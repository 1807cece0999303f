from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Module")



@_attrs_define
class Module:
    """ 
        Attributes:
            description (str):
            detail (str): What it runs on, or what is wrong (never a secret or an address).
            enabled (bool): Whether this instance is configured to serve it.
            name (str): `database`, `queue`, `models`, `embeddings`, `chain`, `email`, `telegram`, `webhooks`, `admin`.
            status (str): `ok`; `degraded` (serving, with the problem in `detail`); `down`; `off` (not configured).
     """

    description: str
    detail: str
    enabled: bool
    name: str
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        description = self.description

        detail = self.detail

        enabled = self.enabled

        name = self.name

        status = self.status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "description": description,
            "detail": detail,
            "enabled": enabled,
            "name": name,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        detail = d.pop("detail")

        enabled = d.pop("enabled")

        name = d.pop("name")

        status = d.pop("status")

        module = cls(
            description=description,
            detail=detail,
            enabled=enabled,
            name=name,
            status=status,
        )


        module.additional_properties = d
        return module

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
