from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SponsorWallet")



@_attrs_define
class SponsorWallet:
    """ The platform's sponsor wallet.

        Attributes:
            address (str): Lower-case 0x address: fund it to pay for registrations.
            chain_id (int):
            in_use (bool): Whether registrations are sent from it (`MINICLAW_IDENTITY_SIGNER=sponsor`).
            balance_wei (None | str | Unset): Native balance in wei; `null` when the node did not answer.
     """

    address: str
    chain_id: int
    in_use: bool
    balance_wei: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        address = self.address

        chain_id = self.chain_id

        in_use = self.in_use

        balance_wei: None | str | Unset
        if isinstance(self.balance_wei, Unset):
            balance_wei = UNSET
        else:
            balance_wei = self.balance_wei


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "address": address,
            "chain_id": chain_id,
            "in_use": in_use,
        })
        if balance_wei is not UNSET:
            field_dict["balance_wei"] = balance_wei

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        chain_id = d.pop("chain_id")

        in_use = d.pop("in_use")

        def _parse_balance_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        balance_wei = _parse_balance_wei(d.pop("balance_wei", UNSET))


        sponsor_wallet = cls(
            address=address,
            chain_id=chain_id,
            in_use=in_use,
            balance_wei=balance_wei,
        )


        sponsor_wallet.additional_properties = d
        return sponsor_wallet

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
