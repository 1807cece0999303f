from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="EmailChange")



@_attrs_define
class EmailChange:
    """ 
        Attributes:
            new_email (str):
            current_password (None | str | Unset): Required when the account has a password.
     """

    new_email: str
    current_password: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        new_email = self.new_email

        current_password: None | str | Unset
        if isinstance(self.current_password, Unset):
            current_password = UNSET
        else:
            current_password = self.current_password


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "new_email": new_email,
        })
        if current_password is not UNSET:
            field_dict["current_password"] = current_password

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        new_email = d.pop("new_email")

        def _parse_current_password(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        current_password = _parse_current_password(d.pop("current_password", UNSET))


        email_change = cls(
            new_email=new_email,
            current_password=current_password,
        )

        return email_change

