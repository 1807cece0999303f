from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.requirement_extra import RequirementExtra





T = TypeVar("T", bound="Requirement")



@_attrs_define
class Requirement:
    """ One way to pay.

        Attributes:
            amount (str): Credits, or wei, as a decimal string.
            asset (str): `credits`, or `native` (the chain's own currency).
            extra (RequirementExtra): `nonce` (quote it in the proof), `expiresAt`, and for an on-chain payment `data`, the
                transaction data the payment must carry.
            max_timeout_seconds (int):
            network (str): `miniclaw:credits`, or CAIP-2 `eip155:<chain id>`.
            pay_to (str): The seller's credit account id, or its wallet address.
            scheme (str): `exact`.
     """

    amount: str
    asset: str
    extra: RequirementExtra
    max_timeout_seconds: int
    network: str
    pay_to: str
    scheme: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.requirement_extra import RequirementExtra # noqa: PLC0415
        amount = self.amount

        asset = self.asset

        extra = self.extra.to_dict()

        max_timeout_seconds = self.max_timeout_seconds

        network = self.network

        pay_to = self.pay_to

        scheme = self.scheme


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "amount": amount,
            "asset": asset,
            "extra": extra,
            "maxTimeoutSeconds": max_timeout_seconds,
            "network": network,
            "payTo": pay_to,
            "scheme": scheme,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.requirement_extra import RequirementExtra # noqa: PLC0415
        d = dict(src_dict)
        amount = d.pop("amount")

        asset = d.pop("asset")

        extra = RequirementExtra.from_dict(d.pop("extra"))




        max_timeout_seconds = d.pop("maxTimeoutSeconds")

        network = d.pop("network")

        pay_to = d.pop("payTo")

        scheme = d.pop("scheme")

        requirement = cls(
            amount=amount,
            asset=asset,
            extra=extra,
            max_timeout_seconds=max_timeout_seconds,
            network=network,
            pay_to=pay_to,
            scheme=scheme,
        )


        requirement.additional_properties = d
        return requirement

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
