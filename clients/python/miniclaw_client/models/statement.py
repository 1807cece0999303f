from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.entry import Entry





T = TypeVar("T", bound="Statement")



@_attrs_define
class Statement:
    """ An account's balance and its latest entries, newest first (before entry `before` if given).

        Attributes:
            account_id (UUID):
            balance (int):
            entries (list[Entry]):
     """

    account_id: UUID
    balance: int
    entries: list[Entry]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.entry import Entry # noqa: PLC0415
        account_id = str(self.account_id)

        balance = self.balance

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "account_id": account_id,
            "balance": balance,
            "entries": entries,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.entry import Entry # noqa: PLC0415
        d = dict(src_dict)
        account_id = UUID(d.pop("account_id"))




        balance = d.pop("balance")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in (_entries):
            entries_item = Entry.from_dict(entries_item_data)



            entries.append(entries_item)


        statement = cls(
            account_id=account_id,
            balance=balance,
            entries=entries,
        )


        statement.additional_properties = d
        return statement

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
