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






T = TypeVar("T", bound="Entry")



@_attrs_define
class Entry:
    """ One line of an account's statement.

        Attributes:
            amount (int): Positive: credits in; negative: credits out.
            balance_after (int):
            created_at (datetime.datetime):
            id (int):
            kind (str):
            transfer_id (UUID):
            memo (None | str | Unset):
     """

    amount: int
    balance_after: int
    created_at: datetime.datetime
    id: int
    kind: str
    transfer_id: UUID
    memo: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        balance_after = self.balance_after

        created_at = self.created_at.isoformat()

        id = self.id

        kind = self.kind

        transfer_id = str(self.transfer_id)

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "amount": amount,
            "balance_after": balance_after,
            "created_at": created_at,
            "id": id,
            "kind": kind,
            "transfer_id": transfer_id,
        })
        if memo is not UNSET:
            field_dict["memo"] = memo

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        balance_after = d.pop("balance_after")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        kind = d.pop("kind")

        transfer_id = UUID(d.pop("transfer_id"))




        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))


        entry = cls(
            amount=amount,
            balance_after=balance_after,
            created_at=created_at,
            id=id,
            kind=kind,
            transfer_id=transfer_id,
            memo=memo,
        )


        entry.additional_properties = d
        return entry

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
