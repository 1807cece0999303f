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






T = TypeVar("T", bound="WalletTransaction")



@_attrs_define
class WalletTransaction:
    """ One transaction of the agent's wallet.

        Attributes:
            chain_id (int):
            created_at (datetime.datetime):
            from_address (str):
            id (UUID):
            purpose (str): `register`, `set_agent_uri` or `send`.
            signed_hashes (list[str]): Every hash it was signed under, oldest first. More than one when another transaction
                of
                the wallet was found holding its nonce at the confirmed depth, and it was signed again.
            status (str): `awaiting_confirmation`, `queued`, `signed` (hash recorded; broadcast or about to be),
                `confirmed`, `failed` or `cancelled`.
            to_address (str):
            updated_at (datetime.datetime):
            value_wei (str): Native value in wei (decimal string).
            block_number (int | None | Unset):
            error (None | str | Unset): Why it failed (the node's refusal or the contract's revert reason).
            gas_used (int | None | Unset):
            recipient (None | str | Unset): For a transfer of the agent's token (`token_transfer`, whose `to_address` is the
                token's
                contract): who receives the tokens, decoded from the call.
            requested_by (None | str | Unset): Who asked for it: `owner`, `api_key`, `job`, `system` (for a pending one,
                whose request
                the owner is confirming).
            token_amount (None | str | Unset): For a transfer of the agent's token: how many base units, decoded from the
                call.
            tx_hash (None | str | Unset):
     """

    chain_id: int
    created_at: datetime.datetime
    from_address: str
    id: UUID
    purpose: str
    signed_hashes: list[str]
    status: str
    to_address: str
    updated_at: datetime.datetime
    value_wei: str
    block_number: int | None | Unset = UNSET
    error: None | str | Unset = UNSET
    gas_used: int | None | Unset = UNSET
    recipient: None | str | Unset = UNSET
    requested_by: None | str | Unset = UNSET
    token_amount: None | str | Unset = UNSET
    tx_hash: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        created_at = self.created_at.isoformat()

        from_address = self.from_address

        id = str(self.id)

        purpose = self.purpose

        signed_hashes = self.signed_hashes



        status = self.status

        to_address = self.to_address

        updated_at = self.updated_at.isoformat()

        value_wei = self.value_wei

        block_number: int | None | Unset
        if isinstance(self.block_number, Unset):
            block_number = UNSET
        else:
            block_number = self.block_number

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        gas_used: int | None | Unset
        if isinstance(self.gas_used, Unset):
            gas_used = UNSET
        else:
            gas_used = self.gas_used

        recipient: None | str | Unset
        if isinstance(self.recipient, Unset):
            recipient = UNSET
        else:
            recipient = self.recipient

        requested_by: None | str | Unset
        if isinstance(self.requested_by, Unset):
            requested_by = UNSET
        else:
            requested_by = self.requested_by

        token_amount: None | str | Unset
        if isinstance(self.token_amount, Unset):
            token_amount = UNSET
        else:
            token_amount = self.token_amount

        tx_hash: None | str | Unset
        if isinstance(self.tx_hash, Unset):
            tx_hash = UNSET
        else:
            tx_hash = self.tx_hash


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain_id": chain_id,
            "created_at": created_at,
            "from_address": from_address,
            "id": id,
            "purpose": purpose,
            "signed_hashes": signed_hashes,
            "status": status,
            "to_address": to_address,
            "updated_at": updated_at,
            "value_wei": value_wei,
        })
        if block_number is not UNSET:
            field_dict["block_number"] = block_number
        if error is not UNSET:
            field_dict["error"] = error
        if gas_used is not UNSET:
            field_dict["gas_used"] = gas_used
        if recipient is not UNSET:
            field_dict["recipient"] = recipient
        if requested_by is not UNSET:
            field_dict["requested_by"] = requested_by
        if token_amount is not UNSET:
            field_dict["token_amount"] = token_amount
        if tx_hash is not UNSET:
            field_dict["tx_hash"] = tx_hash

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chain_id = d.pop("chain_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        from_address = d.pop("from_address")

        id = UUID(d.pop("id"))




        purpose = d.pop("purpose")

        signed_hashes = cast(list[str], d.pop("signed_hashes"))


        status = d.pop("status")

        to_address = d.pop("to_address")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        value_wei = d.pop("value_wei")

        def _parse_block_number(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        block_number = _parse_block_number(d.pop("block_number", UNSET))


        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_gas_used(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        gas_used = _parse_gas_used(d.pop("gas_used", UNSET))


        def _parse_recipient(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recipient = _parse_recipient(d.pop("recipient", UNSET))


        def _parse_requested_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        requested_by = _parse_requested_by(d.pop("requested_by", UNSET))


        def _parse_token_amount(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        token_amount = _parse_token_amount(d.pop("token_amount", UNSET))


        def _parse_tx_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tx_hash = _parse_tx_hash(d.pop("tx_hash", UNSET))


        wallet_transaction = cls(
            chain_id=chain_id,
            created_at=created_at,
            from_address=from_address,
            id=id,
            purpose=purpose,
            signed_hashes=signed_hashes,
            status=status,
            to_address=to_address,
            updated_at=updated_at,
            value_wei=value_wei,
            block_number=block_number,
            error=error,
            gas_used=gas_used,
            recipient=recipient,
            requested_by=requested_by,
            token_amount=token_amount,
            tx_hash=tx_hash,
        )


        wallet_transaction.additional_properties = d
        return wallet_transaction

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
