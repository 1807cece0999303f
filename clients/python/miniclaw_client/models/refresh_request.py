from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RefreshRequest")



@_attrs_define
class RefreshRequest:
    """ 
        Attributes:
            refresh_token (None | str | Unset): The refresh token; may be omitted when the `mc_refresh` cookie is sent.
     """

    refresh_token: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        refresh_token: None | str | Unset
        if isinstance(self.refresh_token, Unset):
            refresh_token = UNSET
        else:
            refresh_token = self.refresh_token


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if refresh_token is not UNSET:
            field_dict["refresh_token"] = refresh_token

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_refresh_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        refresh_token = _parse_refresh_token(d.pop("refresh_token", UNSET))


        refresh_request = cls(
            refresh_token=refresh_token,
        )

        return refresh_request

