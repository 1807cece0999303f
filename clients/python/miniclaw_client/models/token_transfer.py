from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TokenTransfer")



@_attrs_define
class TokenTransfer:
    """ 
        Attributes:
            block_number (int):
            cursor (str): The page cursor of this event: `<block>:<log index>`.
            from_address (str):
            log_index (int):
            to_address (str):
            tx_hash (str):
            value (str): Base units, as a decimal string.
     """

    block_number: int
    cursor: str
    from_address: str
    log_index: int
    to_address: str
    tx_hash: str
    value: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        block_number = self.block_number

        cursor = self.cursor

        from_address = self.from_address

        log_index = self.log_index

        to_address = self.to_address

        tx_hash = self.tx_hash

        value = self.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "block_number": block_number,
            "cursor": cursor,
            "from_address": from_address,
            "log_index": log_index,
            "to_address": to_address,
            "tx_hash": tx_hash,
            "value": value,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        block_number = d.pop("block_number")

        cursor = d.pop("cursor")

        from_address = d.pop("from_address")

        log_index = d.pop("log_index")

        to_address = d.pop("to_address")

        tx_hash = d.pop("tx_hash")

        value = d.pop("value")

        token_transfer = cls(
            block_number=block_number,
            cursor=cursor,
            from_address=from_address,
            log_index=log_index,
            to_address=to_address,
            tx_hash=tx_hash,
            value=value,
        )


        token_transfer.additional_properties = d
        return token_transfer

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
