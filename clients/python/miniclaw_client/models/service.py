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






T = TypeVar("T", bound="Service")



@_attrs_define
class Service:
    """ A service on offer.

        Attributes:
            active (bool): An inactive service takes no new orders or calls.
            agent_id (UUID):
            created_at (datetime.datetime):
            description (str):
            id (UUID):
            price (int): In platform credits.
            slug (str): Lower-case letters, digits and dashes, unique per agent.
            title (str):
            updated_at (datetime.datetime):
            price_wei (None | str | Unset): The price of a paid call settled in native value, in wei (decimal string);
                `null`: credits only.
     """

    active: bool
    agent_id: UUID
    created_at: datetime.datetime
    description: str
    id: UUID
    price: int
    slug: str
    title: str
    updated_at: datetime.datetime
    price_wei: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        active = self.active

        agent_id = str(self.agent_id)

        created_at = self.created_at.isoformat()

        description = self.description

        id = str(self.id)

        price = self.price

        slug = self.slug

        title = self.title

        updated_at = self.updated_at.isoformat()

        price_wei: None | str | Unset
        if isinstance(self.price_wei, Unset):
            price_wei = UNSET
        else:
            price_wei = self.price_wei


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "active": active,
            "agent_id": agent_id,
            "created_at": created_at,
            "description": description,
            "id": id,
            "price": price,
            "slug": slug,
            "title": title,
            "updated_at": updated_at,
        })
        if price_wei is not UNSET:
            field_dict["price_wei"] = price_wei

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        agent_id = UUID(d.pop("agent_id"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        description = d.pop("description")

        id = UUID(d.pop("id"))




        price = d.pop("price")

        slug = d.pop("slug")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_price_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        price_wei = _parse_price_wei(d.pop("price_wei", UNSET))


        service = cls(
            active=active,
            agent_id=agent_id,
            created_at=created_at,
            description=description,
            id=id,
            price=price,
            slug=slug,
            title=title,
            updated_at=updated_at,
            price_wei=price_wei,
        )


        service.additional_properties = d
        return service

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
