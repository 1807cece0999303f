from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.token import Token





T = TypeVar("T", bound="Evaluation")



@_attrs_define
class Evaluation:
    """ What the chain says about a token: facts, not prices.

        Attributes:
            concentration_hhi (float): Herfindahl–Hirschman index of the holdings (Σ share²): 1 when one address holds
                everything.
            holders (int): Addresses holding a positive balance (indexed).
            no_price (bool): Always true: miniclaw reports no price for a token, only what the chain shows.
            token (Token): The agent's token and, once deployed and indexed, its on-chain facts.
            top10_share (float):
            top_holder_share (float): Share of the supply held by the largest holder, and by the ten largest (0–1).
            transfers (int): Transfer events, the mint included (indexed).
            age_days (float | None | Unset): Days since the deployment was mined.
            chain_error (None | str | Unset):
            total_supply (None | str | Unset): `totalSupply()` read from the chain now; `null` with `chain_error` when the
                node did not answer.
     """

    concentration_hhi: float
    holders: int
    no_price: bool
    token: Token
    top10_share: float
    top_holder_share: float
    transfers: int
    age_days: float | None | Unset = UNSET
    chain_error: None | str | Unset = UNSET
    total_supply: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.token import Token # noqa: PLC0415
        concentration_hhi = self.concentration_hhi

        holders = self.holders

        no_price = self.no_price

        token = self.token.to_dict()

        top10_share = self.top10_share

        top_holder_share = self.top_holder_share

        transfers = self.transfers

        age_days: float | None | Unset
        if isinstance(self.age_days, Unset):
            age_days = UNSET
        else:
            age_days = self.age_days

        chain_error: None | str | Unset
        if isinstance(self.chain_error, Unset):
            chain_error = UNSET
        else:
            chain_error = self.chain_error

        total_supply: None | str | Unset
        if isinstance(self.total_supply, Unset):
            total_supply = UNSET
        else:
            total_supply = self.total_supply


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "concentration_hhi": concentration_hhi,
            "holders": holders,
            "no_price": no_price,
            "token": token,
            "top10_share": top10_share,
            "top_holder_share": top_holder_share,
            "transfers": transfers,
        })
        if age_days is not UNSET:
            field_dict["age_days"] = age_days
        if chain_error is not UNSET:
            field_dict["chain_error"] = chain_error
        if total_supply is not UNSET:
            field_dict["total_supply"] = total_supply

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.token import Token # noqa: PLC0415
        d = dict(src_dict)
        concentration_hhi = d.pop("concentration_hhi")

        holders = d.pop("holders")

        no_price = d.pop("no_price")

        token = Token.from_dict(d.pop("token"))




        top10_share = d.pop("top10_share")

        top_holder_share = d.pop("top_holder_share")

        transfers = d.pop("transfers")

        def _parse_age_days(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        age_days = _parse_age_days(d.pop("age_days", UNSET))


        def _parse_chain_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chain_error = _parse_chain_error(d.pop("chain_error", UNSET))


        def _parse_total_supply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        total_supply = _parse_total_supply(d.pop("total_supply", UNSET))


        evaluation = cls(
            concentration_hhi=concentration_hhi,
            holders=holders,
            no_price=no_price,
            token=token,
            top10_share=top10_share,
            top_holder_share=top_holder_share,
            transfers=transfers,
            age_days=age_days,
            chain_error=chain_error,
            total_supply=total_supply,
        )


        evaluation.additional_properties = d
        return evaluation

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
