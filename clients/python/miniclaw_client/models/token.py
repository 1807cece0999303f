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






T = TypeVar("T", bound="Token")



@_attrs_define
class Token:
    """ The agent's token and, once deployed and indexed, its on-chain facts.

        Attributes:
            chain_id (int):
            decimals (int):
            deploy_transaction_id (UUID):
            name (str):
            status (str): `deploying`, `deployed` or `failed` (the deployment's transaction).
            supply (str): Base units minted, as a decimal string.
            symbol (str):
            address (None | str | Unset): The contract; `null` until the deployment is signed.
            deployed_at (datetime.datetime | None | Unset):
            deployed_block (int | None | Unset):
            error (None | str | Unset):
            indexed_block (int | None | Unset): Every Transfer event up to this block is indexed.
     """

    chain_id: int
    decimals: int
    deploy_transaction_id: UUID
    name: str
    status: str
    supply: str
    symbol: str
    address: None | str | Unset = UNSET
    deployed_at: datetime.datetime | None | Unset = UNSET
    deployed_block: int | None | Unset = UNSET
    error: None | str | Unset = UNSET
    indexed_block: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        decimals = self.decimals

        deploy_transaction_id = str(self.deploy_transaction_id)

        name = self.name

        status = self.status

        supply = self.supply

        symbol = self.symbol

        address: None | str | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        else:
            address = self.address

        deployed_at: None | str | Unset
        if isinstance(self.deployed_at, Unset):
            deployed_at = UNSET
        elif isinstance(self.deployed_at, datetime.datetime):
            deployed_at = self.deployed_at.isoformat()
        else:
            deployed_at = self.deployed_at

        deployed_block: int | None | Unset
        if isinstance(self.deployed_block, Unset):
            deployed_block = UNSET
        else:
            deployed_block = self.deployed_block

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        indexed_block: int | None | Unset
        if isinstance(self.indexed_block, Unset):
            indexed_block = UNSET
        else:
            indexed_block = self.indexed_block


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain_id": chain_id,
            "decimals": decimals,
            "deploy_transaction_id": deploy_transaction_id,
            "name": name,
            "status": status,
            "supply": supply,
            "symbol": symbol,
        })
        if address is not UNSET:
            field_dict["address"] = address
        if deployed_at is not UNSET:
            field_dict["deployed_at"] = deployed_at
        if deployed_block is not UNSET:
            field_dict["deployed_block"] = deployed_block
        if error is not UNSET:
            field_dict["error"] = error
        if indexed_block is not UNSET:
            field_dict["indexed_block"] = indexed_block

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chain_id = d.pop("chain_id")

        decimals = d.pop("decimals")

        deploy_transaction_id = UUID(d.pop("deploy_transaction_id"))




        name = d.pop("name")

        status = d.pop("status")

        supply = d.pop("supply")

        symbol = d.pop("symbol")

        def _parse_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        address = _parse_address(d.pop("address", UNSET))


        def _parse_deployed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deployed_at_type_0 = datetime.datetime.fromisoformat(data)



                return deployed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deployed_at = _parse_deployed_at(d.pop("deployed_at", UNSET))


        def _parse_deployed_block(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        deployed_block = _parse_deployed_block(d.pop("deployed_block", UNSET))


        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_indexed_block(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        indexed_block = _parse_indexed_block(d.pop("indexed_block", UNSET))


        token = cls(
            chain_id=chain_id,
            decimals=decimals,
            deploy_transaction_id=deploy_transaction_id,
            name=name,
            status=status,
            supply=supply,
            symbol=symbol,
            address=address,
            deployed_at=deployed_at,
            deployed_block=deployed_block,
            error=error,
            indexed_block=indexed_block,
        )


        token.additional_properties = d
        return token

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
