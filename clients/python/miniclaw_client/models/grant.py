from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="Grant")



@_attrs_define
class Grant:
    """ A grant of platform credits to a tenant.

        Attributes:
            amount (int): 1 to 1,000,000,000 credits.
            idempotency_key (str): The same key grants once: a retry returns the first grant (`replayed: true`).
            tenant_id (UUID):
            memo (None | str | Unset):
     """

    amount: int
    idempotency_key: str
    tenant_id: UUID
    memo: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        idempotency_key = self.idempotency_key

        tenant_id = str(self.tenant_id)

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "amount": amount,
            "idempotency_key": idempotency_key,
            "tenant_id": tenant_id,
        })
        if memo is not UNSET:
            field_dict["memo"] = memo

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        idempotency_key = d.pop("idempotency_key")

        tenant_id = UUID(d.pop("tenant_id"))




        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))


        grant = cls(
            amount=amount,
            idempotency_key=idempotency_key,
            tenant_id=tenant_id,
            memo=memo,
        )

        return grant

