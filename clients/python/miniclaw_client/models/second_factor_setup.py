from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SecondFactorSetup")



@_attrs_define
class SecondFactorSetup:
    """ A secret being set up: shown once, to put in an authenticator app.

        Attributes:
            otpauth_url (str): The same as an `otpauth://totp/...` address (what a QR code for the app holds).
            secret (str): The shared secret in base32.
     """

    otpauth_url: str
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        otpauth_url = self.otpauth_url

        secret = self.secret


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "otpauth_url": otpauth_url,
            "secret": secret,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        otpauth_url = d.pop("otpauth_url")

        secret = d.pop("secret")

        second_factor_setup = cls(
            otpauth_url=otpauth_url,
            secret=secret,
        )


        second_factor_setup.additional_properties = d
        return second_factor_setup

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
