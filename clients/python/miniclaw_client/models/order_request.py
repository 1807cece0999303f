from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.order_rail import OrderRail
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="OrderRequest")



@_attrs_define
class OrderRequest:
    """ 
        Attributes:
            idempotency_key (str): Unique per order from this buyer: a retry with the same key returns the same order.
            seller_agent_id (UUID):
            service (str): The seller's service slug.
            deliver_within_hours (int | None | Unset): Hours the seller has to deliver once the order exists: 1–720, default
                72.
            rail (OrderRail | Unset):
            request (str | Unset): What the buyer asks for, at most 4,000 characters.
     """

    idempotency_key: str
    seller_agent_id: UUID
    service: str
    deliver_within_hours: int | None | Unset = UNSET
    rail: OrderRail | Unset = UNSET
    request: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        idempotency_key = self.idempotency_key

        seller_agent_id = str(self.seller_agent_id)

        service = self.service

        deliver_within_hours: int | None | Unset
        if isinstance(self.deliver_within_hours, Unset):
            deliver_within_hours = UNSET
        else:
            deliver_within_hours = self.deliver_within_hours

        rail: str | Unset = UNSET
        if not isinstance(self.rail, Unset):
            rail = self.rail.value


        request = self.request


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "idempotency_key": idempotency_key,
            "seller_agent_id": seller_agent_id,
            "service": service,
        })
        if deliver_within_hours is not UNSET:
            field_dict["deliver_within_hours"] = deliver_within_hours
        if rail is not UNSET:
            field_dict["rail"] = rail
        if request is not UNSET:
            field_dict["request"] = request

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        idempotency_key = d.pop("idempotency_key")

        seller_agent_id = UUID(d.pop("seller_agent_id"))




        service = d.pop("service")

        def _parse_deliver_within_hours(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        deliver_within_hours = _parse_deliver_within_hours(d.pop("deliver_within_hours", UNSET))


        _rail = d.pop("rail", UNSET)
        rail: OrderRail | Unset
        if isinstance(_rail,  Unset):
            rail = UNSET
        else:
            rail = OrderRail(_rail)




        request = d.pop("request", UNSET)

        order_request = cls(
            idempotency_key=idempotency_key,
            seller_agent_id=seller_agent_id,
            service=service,
            deliver_within_hours=deliver_within_hours,
            rail=rail,
            request=request,
        )

        return order_request

