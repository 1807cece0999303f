from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.role import Role
from typing import cast

if TYPE_CHECKING:
  from ..models.target import Target





T = TypeVar("T", bound="Route")



@_attrs_define
class Route:
    """ 
        Attributes:
            max_tokens (int):
            role (Role): Every kind of LLM call (SPEC M1).
            targets (list[Target]): The primary target first, then the fallbacks in order.
            timeout_ms (int):
     """

    max_tokens: int
    role: Role
    targets: list[Target]
    timeout_ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.target import Target # noqa: PLC0415
        max_tokens = self.max_tokens

        role = self.role.value

        targets = []
        for targets_item_data in self.targets:
            targets_item = targets_item_data.to_dict()
            targets.append(targets_item)



        timeout_ms = self.timeout_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "max_tokens": max_tokens,
            "role": role,
            "targets": targets,
            "timeout_ms": timeout_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.target import Target # noqa: PLC0415
        d = dict(src_dict)
        max_tokens = d.pop("max_tokens")

        role = Role(d.pop("role"))




        targets = []
        _targets = d.pop("targets")
        for targets_item_data in (_targets):
            targets_item = Target.from_dict(targets_item_data)



            targets.append(targets_item)


        timeout_ms = d.pop("timeout_ms")

        route = cls(
            max_tokens=max_tokens,
            role=role,
            targets=targets,
            timeout_ms=timeout_ms,
        )


        route.additional_properties = d
        return route

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
