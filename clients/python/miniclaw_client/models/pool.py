from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.backed import Backed





T = TypeVar("T", bound="Pool")



@_attrs_define
class Pool:
    """ A topic's signal pool in one asset.

        Attributes:
            active_stakes (int):
            asset (str): `credits`, or `token:<address>` for stakes in one agent's token (amounts in whole tokens).
            conviction (float): The summed conviction of the active stakes.
            leaders (list[Backed]): The agents the pool backs most, by conviction (at most 5).
            slashed (int):
            staked (int): Credits (or whole tokens) in active stakes.
            topic (str):
            validated (int):
            symbol (None | str | Unset): The token's symbol, for a token pool.
     """

    active_stakes: int
    asset: str
    conviction: float
    leaders: list[Backed]
    slashed: int
    staked: int
    topic: str
    validated: int
    symbol: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.backed import Backed # noqa: PLC0415
        active_stakes = self.active_stakes

        asset = self.asset

        conviction = self.conviction

        leaders = []
        for leaders_item_data in self.leaders:
            leaders_item = leaders_item_data.to_dict()
            leaders.append(leaders_item)



        slashed = self.slashed

        staked = self.staked

        topic = self.topic

        validated = self.validated

        symbol: None | str | Unset
        if isinstance(self.symbol, Unset):
            symbol = UNSET
        else:
            symbol = self.symbol


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "active_stakes": active_stakes,
            "asset": asset,
            "conviction": conviction,
            "leaders": leaders,
            "slashed": slashed,
            "staked": staked,
            "topic": topic,
            "validated": validated,
        })
        if symbol is not UNSET:
            field_dict["symbol"] = symbol

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.backed import Backed # noqa: PLC0415
        d = dict(src_dict)
        active_stakes = d.pop("active_stakes")

        asset = d.pop("asset")

        conviction = d.pop("conviction")

        leaders = []
        _leaders = d.pop("leaders")
        for leaders_item_data in (_leaders):
            leaders_item = Backed.from_dict(leaders_item_data)



            leaders.append(leaders_item)


        slashed = d.pop("slashed")

        staked = d.pop("staked")

        topic = d.pop("topic")

        validated = d.pop("validated")

        def _parse_symbol(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        symbol = _parse_symbol(d.pop("symbol", UNSET))


        pool = cls(
            active_stakes=active_stakes,
            asset=asset,
            conviction=conviction,
            leaders=leaders,
            slashed=slashed,
            staked=staked,
            topic=topic,
            validated=validated,
            symbol=symbol,
        )


        pool.additional_properties = d
        return pool

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
