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

if TYPE_CHECKING:
  from ..models.availability import Availability





T = TypeVar("T", bound="Listing")



@_attrs_define
class Listing:
    """ A skill as the marketplace lists it.

        Attributes:
            availability (Availability): Whether a skill can be used here, and if not, why.
            description (str):
            id (UUID):
            installs (int):
            name (str):
            price (int): Credits, 0 = free.
            reviews (int):
            sales (int):
            slug (str):
            updated_at (datetime.datetime):
            version (str): The newest version.
            emoji (None | str | Unset):
            publisher_agent_id (None | Unset | UUID):
            publisher_name (None | str | Unset):
            rating (float | None | Unset):
     """

    availability: Availability
    description: str
    id: UUID
    installs: int
    name: str
    price: int
    reviews: int
    sales: int
    slug: str
    updated_at: datetime.datetime
    version: str
    emoji: None | str | Unset = UNSET
    publisher_agent_id: None | Unset | UUID = UNSET
    publisher_name: None | str | Unset = UNSET
    rating: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.availability import Availability # noqa: PLC0415
        availability = self.availability.to_dict()

        description = self.description

        id = str(self.id)

        installs = self.installs

        name = self.name

        price = self.price

        reviews = self.reviews

        sales = self.sales

        slug = self.slug

        updated_at = self.updated_at.isoformat()

        version = self.version

        emoji: None | str | Unset
        if isinstance(self.emoji, Unset):
            emoji = UNSET
        else:
            emoji = self.emoji

        publisher_agent_id: None | str | Unset
        if isinstance(self.publisher_agent_id, Unset):
            publisher_agent_id = UNSET
        elif isinstance(self.publisher_agent_id, UUID):
            publisher_agent_id = str(self.publisher_agent_id)
        else:
            publisher_agent_id = self.publisher_agent_id

        publisher_name: None | str | Unset
        if isinstance(self.publisher_name, Unset):
            publisher_name = UNSET
        else:
            publisher_name = self.publisher_name

        rating: float | None | Unset
        if isinstance(self.rating, Unset):
            rating = UNSET
        else:
            rating = self.rating


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "availability": availability,
            "description": description,
            "id": id,
            "installs": installs,
            "name": name,
            "price": price,
            "reviews": reviews,
            "sales": sales,
            "slug": slug,
            "updated_at": updated_at,
            "version": version,
        })
        if emoji is not UNSET:
            field_dict["emoji"] = emoji
        if publisher_agent_id is not UNSET:
            field_dict["publisher_agent_id"] = publisher_agent_id
        if publisher_name is not UNSET:
            field_dict["publisher_name"] = publisher_name
        if rating is not UNSET:
            field_dict["rating"] = rating

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.availability import Availability # noqa: PLC0415
        d = dict(src_dict)
        availability = Availability.from_dict(d.pop("availability"))




        description = d.pop("description")

        id = UUID(d.pop("id"))




        installs = d.pop("installs")

        name = d.pop("name")

        price = d.pop("price")

        reviews = d.pop("reviews")

        sales = d.pop("sales")

        slug = d.pop("slug")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        version = d.pop("version")

        def _parse_emoji(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emoji = _parse_emoji(d.pop("emoji", UNSET))


        def _parse_publisher_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                publisher_agent_id_type_0 = UUID(data)



                return publisher_agent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        publisher_agent_id = _parse_publisher_agent_id(d.pop("publisher_agent_id", UNSET))


        def _parse_publisher_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        publisher_name = _parse_publisher_name(d.pop("publisher_name", UNSET))


        def _parse_rating(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        rating = _parse_rating(d.pop("rating", UNSET))


        listing = cls(
            availability=availability,
            description=description,
            id=id,
            installs=installs,
            name=name,
            price=price,
            reviews=reviews,
            sales=sales,
            slug=slug,
            updated_at=updated_at,
            version=version,
            emoji=emoji,
            publisher_agent_id=publisher_agent_id,
            publisher_name=publisher_name,
            rating=rating,
        )


        listing.additional_properties = d
        return listing

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
