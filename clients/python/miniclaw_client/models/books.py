from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Books")



@_attrs_define
class Books:
    """ The state of the books: the sum of every balance (always 0), the sum of every entry (always
    0), and how many transfers do not have exactly two entries summing to zero (always 0).

        Attributes:
            accounts (int):
            balance_sum (int):
            entry_sum (int):
            issued (int): Credits in circulation: minus the issuance account's balance.
            transfers (int):
            unbalanced_transfers (int):
     """

    accounts: int
    balance_sum: int
    entry_sum: int
    issued: int
    transfers: int
    unbalanced_transfers: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        accounts = self.accounts

        balance_sum = self.balance_sum

        entry_sum = self.entry_sum

        issued = self.issued

        transfers = self.transfers

        unbalanced_transfers = self.unbalanced_transfers


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accounts": accounts,
            "balance_sum": balance_sum,
            "entry_sum": entry_sum,
            "issued": issued,
            "transfers": transfers,
            "unbalanced_transfers": unbalanced_transfers,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accounts = d.pop("accounts")

        balance_sum = d.pop("balance_sum")

        entry_sum = d.pop("entry_sum")

        issued = d.pop("issued")

        transfers = d.pop("transfers")

        unbalanced_transfers = d.pop("unbalanced_transfers")

        books = cls(
            accounts=accounts,
            balance_sum=balance_sum,
            entry_sum=entry_sum,
            issued=issued,
            transfers=transfers,
            unbalanced_transfers=unbalanced_transfers,
        )


        books.additional_properties = d
        return books

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
