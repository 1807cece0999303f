from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="ExternalWallet")



@_attrs_define
class ExternalWallet:
    """ An owner-held wallet with its balance on the configured chain.

        Attributes:
            address (str): Lower-case 0x address.
            created_at (datetime.datetime):
            id (UUID):
            label (str):
            server_managed (bool): Always false: miniclaw holds no key for it.
            balance_wei (None | str | Unset): Native balance in wei; `null` without a chain or when the node did not answer.
     """

    address: str
    created_at: datetime.datetime
    id: UUID
    label: str
    server_managed: bool
    balance_wei: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        address = self.address

        created_at = self.created_at.isoformat()

        id = str(self.id)

        label = self.label

        server_managed = self.server_managed

        balance_wei: None | str | Unset
        if isinstance(self.balance_wei, Unset):
            balance_wei = UNSET
        else:
            balance_wei = self.balance_wei


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "address": address,
            "created_at": created_at,
            "id": id,
            "label": label,
            "server_managed": server_managed,
        })
        if balance_wei is not UNSET:
            field_dict["balance_wei"] = balance_wei

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        label = d.pop("label")

        server_managed = d.pop("server_managed")

        def _parse_balance_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        balance_wei = _parse_balance_wei(d.pop("balance_wei", UNSET))


        external_wallet = cls(
            address=address,
            created_at=created_at,
            id=id,
            label=label,
            server_managed=server_managed,
            balance_wei=balance_wei,
        )


        external_wallet.additional_properties = d
        return external_wallet

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
