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






T = TypeVar("T", bound="Topup")



@_attrs_define
class Topup:
    """ 
        Attributes:
            address (str):
            amount_wei (str):
            created_at (datetime.datetime):
            id (UUID):
            status (str): The wallet transaction's status: `queued`, `signed`, `confirmed` or `failed`.
            tx_hash (None | str | Unset):
     """

    address: str
    amount_wei: str
    created_at: datetime.datetime
    id: UUID
    status: str
    tx_hash: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        address = self.address

        amount_wei = self.amount_wei

        created_at = self.created_at.isoformat()

        id = str(self.id)

        status = self.status

        tx_hash: None | str | Unset
        if isinstance(self.tx_hash, Unset):
            tx_hash = UNSET
        else:
            tx_hash = self.tx_hash


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "address": address,
            "amount_wei": amount_wei,
            "created_at": created_at,
            "id": id,
            "status": status,
        })
        if tx_hash is not UNSET:
            field_dict["tx_hash"] = tx_hash

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        amount_wei = d.pop("amount_wei")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        status = d.pop("status")

        def _parse_tx_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tx_hash = _parse_tx_hash(d.pop("tx_hash", UNSET))


        topup = cls(
            address=address,
            amount_wei=amount_wei,
            created_at=created_at,
            id=id,
            status=status,
            tx_hash=tx_hash,
        )


        topup.additional_properties = d
        return topup

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
