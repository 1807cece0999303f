from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SecondFactorStatus")



@_attrs_define
class SecondFactorStatus:
    """ Whether the member's second factor is on, and how many recovery codes are left.

        Attributes:
            enabled (bool):
            recovery_codes_left (int):
     """

    enabled: bool
    recovery_codes_left: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        recovery_codes_left = self.recovery_codes_left


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "enabled": enabled,
            "recovery_codes_left": recovery_codes_left,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        recovery_codes_left = d.pop("recovery_codes_left")

        second_factor_status = cls(
            enabled=enabled,
            recovery_codes_left=recovery_codes_left,
        )


        second_factor_status.additional_properties = d
        return second_factor_status

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
