from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TokenInput")



@_attrs_define
class TokenInput:
    """ 
        Attributes:
            name (str): 1–64 characters.
            supply (str): Whole tokens minted to the agent's wallet, as a decimal string (× 10^decimals base units).
            symbol (str): 1–11 upper-case letters and digits.
            decimals (int | None | Unset): 0–18, default 18.
     """

    name: str
    supply: str
    symbol: str
    decimals: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        supply = self.supply

        symbol = self.symbol

        decimals: int | None | Unset
        if isinstance(self.decimals, Unset):
            decimals = UNSET
        else:
            decimals = self.decimals


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "supply": supply,
            "symbol": symbol,
        })
        if decimals is not UNSET:
            field_dict["decimals"] = decimals

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        supply = d.pop("supply")

        symbol = d.pop("symbol")

        def _parse_decimals(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        decimals = _parse_decimals(d.pop("decimals", UNSET))


        token_input = cls(
            name=name,
            supply=supply,
            symbol=symbol,
            decimals=decimals,
        )

        return token_input

