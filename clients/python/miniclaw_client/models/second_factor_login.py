from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SecondFactorLogin")



@_attrs_define
class SecondFactorLogin:
    """ 
        Attributes:
            code (str): A code of the member's authenticator app, or one of their recovery codes.
            second_factor_token (str): The `second_factor_token` of the sign-in.
     """

    code: str
    second_factor_token: str





    def to_dict(self) -> dict[str, Any]:
        code = self.code

        second_factor_token = self.second_factor_token


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "code": code,
            "second_factor_token": second_factor_token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        second_factor_token = d.pop("second_factor_token")

        second_factor_login = cls(
            code=code,
            second_factor_token=second_factor_token,
        )

        return second_factor_login

