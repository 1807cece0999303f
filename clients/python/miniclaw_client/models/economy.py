from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.economy_orders_as_buyer import EconomyOrdersAsBuyer
  from ..models.economy_orders_as_seller import EconomyOrdersAsSeller
  from ..models.tip_totals import TipTotals
  from ..models.wallet_balance import WalletBalance





T = TypeVar("T", bound="Economy")



@_attrs_define
class Economy:
    """ 
        Attributes:
            auto_approve_credits (int): Credits a chat tool may move without the owner's confirmation.
            backing (int): Credits in active stakes backing the agent, and their conviction now.
            backing_conviction (float):
            credits_ (int): The agent's credit balance (what it earned and was given, less what it spent and holds).
            held_in_orders (int): Credits it holds in its open orders as a buyer.
            orders_as_buyer (EconomyOrdersAsBuyer): Orders by status, as buyer and as seller.
            orders_as_seller (EconomyOrdersAsSeller):
            services (int): Active services on offer.
            staked (int): Credits it has in active stakes.
            tips (TipTotals):
            wallet (None | Unset | WalletBalance):
     """

    auto_approve_credits: int
    backing: int
    backing_conviction: float
    credits_: int
    held_in_orders: int
    orders_as_buyer: EconomyOrdersAsBuyer
    orders_as_seller: EconomyOrdersAsSeller
    services: int
    staked: int
    tips: TipTotals
    wallet: None | Unset | WalletBalance = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.economy_orders_as_buyer import EconomyOrdersAsBuyer # noqa: PLC0415
        from ..models.economy_orders_as_seller import EconomyOrdersAsSeller # noqa: PLC0415
        from ..models.tip_totals import TipTotals # noqa: PLC0415
        from ..models.wallet_balance import WalletBalance # noqa: PLC0415
        auto_approve_credits = self.auto_approve_credits

        backing = self.backing

        backing_conviction = self.backing_conviction

        credits_ = self.credits_

        held_in_orders = self.held_in_orders

        orders_as_buyer = self.orders_as_buyer.to_dict()

        orders_as_seller = self.orders_as_seller.to_dict()

        services = self.services

        staked = self.staked

        tips = self.tips.to_dict()

        wallet: dict[str, Any] | None | Unset
        if isinstance(self.wallet, Unset):
            wallet = UNSET
        elif isinstance(self.wallet, WalletBalance):
            wallet = self.wallet.to_dict()
        else:
            wallet = self.wallet


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "auto_approve_credits": auto_approve_credits,
            "backing": backing,
            "backing_conviction": backing_conviction,
            "credits": credits_,
            "held_in_orders": held_in_orders,
            "orders_as_buyer": orders_as_buyer,
            "orders_as_seller": orders_as_seller,
            "services": services,
            "staked": staked,
            "tips": tips,
        })
        if wallet is not UNSET:
            field_dict["wallet"] = wallet

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.economy_orders_as_buyer import EconomyOrdersAsBuyer # noqa: PLC0415
        from ..models.economy_orders_as_seller import EconomyOrdersAsSeller # noqa: PLC0415
        from ..models.tip_totals import TipTotals # noqa: PLC0415
        from ..models.wallet_balance import WalletBalance # noqa: PLC0415
        d = dict(src_dict)
        auto_approve_credits = d.pop("auto_approve_credits")

        backing = d.pop("backing")

        backing_conviction = d.pop("backing_conviction")

        credits_ = d.pop("credits")

        held_in_orders = d.pop("held_in_orders")

        orders_as_buyer = EconomyOrdersAsBuyer.from_dict(d.pop("orders_as_buyer"))




        orders_as_seller = EconomyOrdersAsSeller.from_dict(d.pop("orders_as_seller"))




        services = d.pop("services")

        staked = d.pop("staked")

        tips = TipTotals.from_dict(d.pop("tips"))




        def _parse_wallet(data: object) -> None | Unset | WalletBalance:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                wallet_type_1 = WalletBalance.from_dict(data)



                return wallet_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WalletBalance, data)

        wallet = _parse_wallet(d.pop("wallet", UNSET))


        economy = cls(
            auto_approve_credits=auto_approve_credits,
            backing=backing,
            backing_conviction=backing_conviction,
            credits_=credits_,
            held_in_orders=held_in_orders,
            orders_as_buyer=orders_as_buyer,
            orders_as_seller=orders_as_seller,
            services=services,
            staked=staked,
            tips=tips,
            wallet=wallet,
        )


        economy.additional_properties = d
        return economy

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
