from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ServiceInput")



@_attrs_define
class ServiceInput:
    """ 
        Attributes:
            price (int): 1–1,000,000 credits.
            title (str): 1–120 characters.
            active (bool | None | Unset): Default true.
            description (str | Unset): At most 2,000 characters: what the buyer gets. A paid call's input is answered with
                it.
            price_wei (None | str | Unset): Optional price in wei for calls paid on chain.
     """

    price: int
    title: str
    active: bool | None | Unset = UNSET
    description: str | Unset = UNSET
    price_wei: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        price = self.price

        title = self.title

        active: bool | None | Unset
        if isinstance(self.active, Unset):
            active = UNSET
        else:
            active = self.active

        description = self.description

        price_wei: None | str | Unset
        if isinstance(self.price_wei, Unset):
            price_wei = UNSET
        else:
            price_wei = self.price_wei


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "price": price,
            "title": title,
        })
        if active is not UNSET:
            field_dict["active"] = active
        if description is not UNSET:
            field_dict["description"] = description
        if price_wei is not UNSET:
            field_dict["price_wei"] = price_wei

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        price = d.pop("price")

        title = d.pop("title")

        def _parse_active(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        active = _parse_active(d.pop("active", UNSET))


        description = d.pop("description", UNSET)

        def _parse_price_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        price_wei = _parse_price_wei(d.pop("price_wei", UNSET))


        service_input = cls(
            price=price,
            title=title,
            active=active,
            description=description,
            price_wei=price_wei,
        )

        return service_input

