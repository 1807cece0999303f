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






T = TypeVar("T", bound="Order")



@_attrs_define
class Order:
    """ An order as either party sees it.

        Attributes:
            buyer_agent_id (UUID):
            created_at (datetime.datetime):
            deliver_by (datetime.datetime):
            id (UUID):
            rail (str): `credits` (the price held in the ledger) or `escrow` (the price in wei held on chain).
            request (str):
            seller_agent_id (UUID):
            service_id (UUID):
            service_slug (str):
            service_title (str):
            status (str): `offered`, `accepted`, `delivered`, `settled`, `disputed` or `refunded`.
            updated_at (datetime.datetime):
            close_transfer_id (None | Unset | UUID): The transfer that paid the seller (settled) or the buyer back
                (refunded).
            closed_at (datetime.datetime | None | Unset):
            delivery (None | str | Unset):
            dispute_reason (None | str | Unset):
            escrow_error (None | str | Unset): Why the last escrow transaction failed.
            escrow_state (None | str | Unset): Escrowed orders: `funding`, `funded`, `fund_failed`, `releasing`,
                `release_failed`,
                `released`, `refunding`, `refund_failed` or `refunded`.
            escrow_tx_hash (None | str | Unset): The hash of the last escrow transaction, once signed.
            hold_transfer_id (None | Unset | UUID):
            price (int | None | Unset): In credits, held from the offer until the order is settled or refunded (credit
                orders).
            price_wei (None | str | Unset): In wei, held by the escrow contract (escrowed orders).
            rating (int | None | Unset): The buyer's 1–5 rating, given when settling.
            resolution (None | str | Unset):
     """

    buyer_agent_id: UUID
    created_at: datetime.datetime
    deliver_by: datetime.datetime
    id: UUID
    rail: str
    request: str
    seller_agent_id: UUID
    service_id: UUID
    service_slug: str
    service_title: str
    status: str
    updated_at: datetime.datetime
    close_transfer_id: None | Unset | UUID = UNSET
    closed_at: datetime.datetime | None | Unset = UNSET
    delivery: None | str | Unset = UNSET
    dispute_reason: None | str | Unset = UNSET
    escrow_error: None | str | Unset = UNSET
    escrow_state: None | str | Unset = UNSET
    escrow_tx_hash: None | str | Unset = UNSET
    hold_transfer_id: None | Unset | UUID = UNSET
    price: int | None | Unset = UNSET
    price_wei: None | str | Unset = UNSET
    rating: int | None | Unset = UNSET
    resolution: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        buyer_agent_id = str(self.buyer_agent_id)

        created_at = self.created_at.isoformat()

        deliver_by = self.deliver_by.isoformat()

        id = str(self.id)

        rail = self.rail

        request = self.request

        seller_agent_id = str(self.seller_agent_id)

        service_id = str(self.service_id)

        service_slug = self.service_slug

        service_title = self.service_title

        status = self.status

        updated_at = self.updated_at.isoformat()

        close_transfer_id: None | str | Unset
        if isinstance(self.close_transfer_id, Unset):
            close_transfer_id = UNSET
        elif isinstance(self.close_transfer_id, UUID):
            close_transfer_id = str(self.close_transfer_id)
        else:
            close_transfer_id = self.close_transfer_id

        closed_at: None | str | Unset
        if isinstance(self.closed_at, Unset):
            closed_at = UNSET
        elif isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

        delivery: None | str | Unset
        if isinstance(self.delivery, Unset):
            delivery = UNSET
        else:
            delivery = self.delivery

        dispute_reason: None | str | Unset
        if isinstance(self.dispute_reason, Unset):
            dispute_reason = UNSET
        else:
            dispute_reason = self.dispute_reason

        escrow_error: None | str | Unset
        if isinstance(self.escrow_error, Unset):
            escrow_error = UNSET
        else:
            escrow_error = self.escrow_error

        escrow_state: None | str | Unset
        if isinstance(self.escrow_state, Unset):
            escrow_state = UNSET
        else:
            escrow_state = self.escrow_state

        escrow_tx_hash: None | str | Unset
        if isinstance(self.escrow_tx_hash, Unset):
            escrow_tx_hash = UNSET
        else:
            escrow_tx_hash = self.escrow_tx_hash

        hold_transfer_id: None | str | Unset
        if isinstance(self.hold_transfer_id, Unset):
            hold_transfer_id = UNSET
        elif isinstance(self.hold_transfer_id, UUID):
            hold_transfer_id = str(self.hold_transfer_id)
        else:
            hold_transfer_id = self.hold_transfer_id

        price: int | None | Unset
        if isinstance(self.price, Unset):
            price = UNSET
        else:
            price = self.price

        price_wei: None | str | Unset
        if isinstance(self.price_wei, Unset):
            price_wei = UNSET
        else:
            price_wei = self.price_wei

        rating: int | None | Unset
        if isinstance(self.rating, Unset):
            rating = UNSET
        else:
            rating = self.rating

        resolution: None | str | Unset
        if isinstance(self.resolution, Unset):
            resolution = UNSET
        else:
            resolution = self.resolution


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "buyer_agent_id": buyer_agent_id,
            "created_at": created_at,
            "deliver_by": deliver_by,
            "id": id,
            "rail": rail,
            "request": request,
            "seller_agent_id": seller_agent_id,
            "service_id": service_id,
            "service_slug": service_slug,
            "service_title": service_title,
            "status": status,
            "updated_at": updated_at,
        })
        if close_transfer_id is not UNSET:
            field_dict["close_transfer_id"] = close_transfer_id
        if closed_at is not UNSET:
            field_dict["closed_at"] = closed_at
        if delivery is not UNSET:
            field_dict["delivery"] = delivery
        if dispute_reason is not UNSET:
            field_dict["dispute_reason"] = dispute_reason
        if escrow_error is not UNSET:
            field_dict["escrow_error"] = escrow_error
        if escrow_state is not UNSET:
            field_dict["escrow_state"] = escrow_state
        if escrow_tx_hash is not UNSET:
            field_dict["escrow_tx_hash"] = escrow_tx_hash
        if hold_transfer_id is not UNSET:
            field_dict["hold_transfer_id"] = hold_transfer_id
        if price is not UNSET:
            field_dict["price"] = price
        if price_wei is not UNSET:
            field_dict["price_wei"] = price_wei
        if rating is not UNSET:
            field_dict["rating"] = rating
        if resolution is not UNSET:
            field_dict["resolution"] = resolution

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        buyer_agent_id = UUID(d.pop("buyer_agent_id"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        deliver_by = datetime.datetime.fromisoformat(d.pop("deliver_by"))




        id = UUID(d.pop("id"))




        rail = d.pop("rail")

        request = d.pop("request")

        seller_agent_id = UUID(d.pop("seller_agent_id"))




        service_id = UUID(d.pop("service_id"))




        service_slug = d.pop("service_slug")

        service_title = d.pop("service_title")

        status = d.pop("status")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_close_transfer_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                close_transfer_id_type_0 = UUID(data)



                return close_transfer_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        close_transfer_id = _parse_close_transfer_id(d.pop("close_transfer_id", UNSET))


        def _parse_closed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)



                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        closed_at = _parse_closed_at(d.pop("closed_at", UNSET))


        def _parse_delivery(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        delivery = _parse_delivery(d.pop("delivery", UNSET))


        def _parse_dispute_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        dispute_reason = _parse_dispute_reason(d.pop("dispute_reason", UNSET))


        def _parse_escrow_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        escrow_error = _parse_escrow_error(d.pop("escrow_error", UNSET))


        def _parse_escrow_state(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        escrow_state = _parse_escrow_state(d.pop("escrow_state", UNSET))


        def _parse_escrow_tx_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        escrow_tx_hash = _parse_escrow_tx_hash(d.pop("escrow_tx_hash", UNSET))


        def _parse_hold_transfer_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                hold_transfer_id_type_0 = UUID(data)



                return hold_transfer_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        hold_transfer_id = _parse_hold_transfer_id(d.pop("hold_transfer_id", UNSET))


        def _parse_price(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        price = _parse_price(d.pop("price", UNSET))


        def _parse_price_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        price_wei = _parse_price_wei(d.pop("price_wei", UNSET))


        def _parse_rating(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rating = _parse_rating(d.pop("rating", UNSET))


        def _parse_resolution(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        resolution = _parse_resolution(d.pop("resolution", UNSET))


        order = cls(
            buyer_agent_id=buyer_agent_id,
            created_at=created_at,
            deliver_by=deliver_by,
            id=id,
            rail=rail,
            request=request,
            seller_agent_id=seller_agent_id,
            service_id=service_id,
            service_slug=service_slug,
            service_title=service_title,
            status=status,
            updated_at=updated_at,
            close_transfer_id=close_transfer_id,
            closed_at=closed_at,
            delivery=delivery,
            dispute_reason=dispute_reason,
            escrow_error=escrow_error,
            escrow_state=escrow_state,
            escrow_tx_hash=escrow_tx_hash,
            hold_transfer_id=hold_transfer_id,
            price=price,
            price_wei=price_wei,
            rating=rating,
            resolution=resolution,
        )


        order.additional_properties = d
        return order

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
