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






T = TypeVar("T", bound="Tip")



@_attrs_define
class Tip:
    """ A tip or a gift.

        Attributes:
            amount (str): Credits, or wei, as a decimal string.
            created_at (datetime.datetime):
            id (UUID):
            kind (str): `tip` (to an agent) or `gift` (to the owner).
            rail (str): `credits`, `native` or `token`.
            status (str): `completed`, `awaiting_confirmation`, `cancelled`; in native value or tokens also
                `pending` (queued, signed or broadcast) and `failed`, following its wallet transaction.
            from_agent_id (None | Unset | UUID): The paying agent; `null` when the owner paid.
            memo (None | str | Unset):
            to_agent_id (None | Unset | UUID): The agent receiving it; `null` for a gift to the owner.
            transfer_id (None | Unset | UUID):
            tx_hash (None | str | Unset):
            wallet_transaction_id (None | Unset | UUID):
     """

    amount: str
    created_at: datetime.datetime
    id: UUID
    kind: str
    rail: str
    status: str
    from_agent_id: None | Unset | UUID = UNSET
    memo: None | str | Unset = UNSET
    to_agent_id: None | Unset | UUID = UNSET
    transfer_id: None | Unset | UUID = UNSET
    tx_hash: None | str | Unset = UNSET
    wallet_transaction_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        created_at = self.created_at.isoformat()

        id = str(self.id)

        kind = self.kind

        rail = self.rail

        status = self.status

        from_agent_id: None | str | Unset
        if isinstance(self.from_agent_id, Unset):
            from_agent_id = UNSET
        elif isinstance(self.from_agent_id, UUID):
            from_agent_id = str(self.from_agent_id)
        else:
            from_agent_id = self.from_agent_id

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        to_agent_id: None | str | Unset
        if isinstance(self.to_agent_id, Unset):
            to_agent_id = UNSET
        elif isinstance(self.to_agent_id, UUID):
            to_agent_id = str(self.to_agent_id)
        else:
            to_agent_id = self.to_agent_id

        transfer_id: None | str | Unset
        if isinstance(self.transfer_id, Unset):
            transfer_id = UNSET
        elif isinstance(self.transfer_id, UUID):
            transfer_id = str(self.transfer_id)
        else:
            transfer_id = self.transfer_id

        tx_hash: None | str | Unset
        if isinstance(self.tx_hash, Unset):
            tx_hash = UNSET
        else:
            tx_hash = self.tx_hash

        wallet_transaction_id: None | str | Unset
        if isinstance(self.wallet_transaction_id, Unset):
            wallet_transaction_id = UNSET
        elif isinstance(self.wallet_transaction_id, UUID):
            wallet_transaction_id = str(self.wallet_transaction_id)
        else:
            wallet_transaction_id = self.wallet_transaction_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "amount": amount,
            "created_at": created_at,
            "id": id,
            "kind": kind,
            "rail": rail,
            "status": status,
        })
        if from_agent_id is not UNSET:
            field_dict["from_agent_id"] = from_agent_id
        if memo is not UNSET:
            field_dict["memo"] = memo
        if to_agent_id is not UNSET:
            field_dict["to_agent_id"] = to_agent_id
        if transfer_id is not UNSET:
            field_dict["transfer_id"] = transfer_id
        if tx_hash is not UNSET:
            field_dict["tx_hash"] = tx_hash
        if wallet_transaction_id is not UNSET:
            field_dict["wallet_transaction_id"] = wallet_transaction_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        kind = d.pop("kind")

        rail = d.pop("rail")

        status = d.pop("status")

        def _parse_from_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_agent_id_type_0 = UUID(data)



                return from_agent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        from_agent_id = _parse_from_agent_id(d.pop("from_agent_id", UNSET))


        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))


        def _parse_to_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_agent_id_type_0 = UUID(data)



                return to_agent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        to_agent_id = _parse_to_agent_id(d.pop("to_agent_id", UNSET))


        def _parse_transfer_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                transfer_id_type_0 = UUID(data)



                return transfer_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        transfer_id = _parse_transfer_id(d.pop("transfer_id", UNSET))


        def _parse_tx_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tx_hash = _parse_tx_hash(d.pop("tx_hash", UNSET))


        def _parse_wallet_transaction_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                wallet_transaction_id_type_0 = UUID(data)



                return wallet_transaction_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        wallet_transaction_id = _parse_wallet_transaction_id(d.pop("wallet_transaction_id", UNSET))


        tip = cls(
            amount=amount,
            created_at=created_at,
            id=id,
            kind=kind,
            rail=rail,
            status=status,
            from_agent_id=from_agent_id,
            memo=memo,
            to_agent_id=to_agent_id,
            transfer_id=transfer_id,
            tx_hash=tx_hash,
            wallet_transaction_id=wallet_transaction_id,
        )


        tip.additional_properties = d
        return tip

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
