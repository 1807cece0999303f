from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SecondFactorRequired")



@_attrs_define
class SecondFactorRequired:
    """ A sign-in waiting for its second factor.

        Attributes:
            second_factor_required (bool): Always true: no session starts until a code is given.
            second_factor_token (str): Present it with a code at `POST /v1/auth/login/second-factor` within 5 minutes.
     """

    second_factor_required: bool
    second_factor_token: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        second_factor_required = self.second_factor_required

        second_factor_token = self.second_factor_token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "second_factor_required": second_factor_required,
            "second_factor_token": second_factor_token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        second_factor_required = d.pop("second_factor_required")

        second_factor_token = d.pop("second_factor_token")

        second_factor_required = cls(
            second_factor_required=second_factor_required,
            second_factor_token=second_factor_token,
        )


        second_factor_required.additional_properties = d
        return second_factor_required

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
