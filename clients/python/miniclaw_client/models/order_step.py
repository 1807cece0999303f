from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action import Action
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="OrderStep")



@_attrs_define
class OrderStep:
    """ 
        Attributes:
            action (Action): A step one of the parties (or the operator) takes.
            delivery (None | str | Unset): `deliver`: the result handed over (required, at most 20,000 characters).
            rating (int | None | Unset): `settle`: the buyer's 1–5 rating of the service.
            reason (None | str | Unset): `dispute`: why (required, at most 2,000 characters).
     """

    action: Action
    delivery: None | str | Unset = UNSET
    rating: int | None | Unset = UNSET
    reason: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        delivery: None | str | Unset
        if isinstance(self.delivery, Unset):
            delivery = UNSET
        else:
            delivery = self.delivery

        rating: int | None | Unset
        if isinstance(self.rating, Unset):
            rating = UNSET
        else:
            rating = self.rating

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "action": action,
        })
        if delivery is not UNSET:
            field_dict["delivery"] = delivery
        if rating is not UNSET:
            field_dict["rating"] = rating
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = Action(d.pop("action"))




        def _parse_delivery(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        delivery = _parse_delivery(d.pop("delivery", UNSET))


        def _parse_rating(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rating = _parse_rating(d.pop("rating", UNSET))


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        order_step = cls(
            action=action,
            delivery=delivery,
            rating=rating,
            reason=reason,
        )

        return order_step

