from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WalletLoginRequest")



@_attrs_define
class WalletLoginRequest:
    """ 
        Attributes:
            nonce (str):
            signature (str): 65-byte `personal_sign` signature, 0x-prefixed hex.
            tenant_name (None | str | Unset): Name of the tenant to create when this wallet signs in for the first time.
     """

    nonce: str
    signature: str
    tenant_name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        nonce = self.nonce

        signature = self.signature

        tenant_name: None | str | Unset
        if isinstance(self.tenant_name, Unset):
            tenant_name = UNSET
        else:
            tenant_name = self.tenant_name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "nonce": nonce,
            "signature": signature,
        })
        if tenant_name is not UNSET:
            field_dict["tenant_name"] = tenant_name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        nonce = d.pop("nonce")

        signature = d.pop("signature")

        def _parse_tenant_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tenant_name = _parse_tenant_name(d.pop("tenant_name", UNSET))


        wallet_login_request = cls(
            nonce=nonce,
            signature=signature,
            tenant_name=tenant_name,
        )

        return wallet_login_request

