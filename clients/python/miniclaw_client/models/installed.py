from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.availability import Availability





T = TypeVar("T", bound="Installed")



@_attrs_define
class Installed:
    """ A skill installed on an agent.

        Attributes:
            availability (Availability): Whether a skill can be used here, and if not, why.
            description (str):
            installed_at (datetime.datetime):
            latest (str): The newest version published (`version` may be older until the agent updates).
            name (str):
            paid (int): Credits paid for it (0 for a free skill).
            slug (str):
            triggers (list[str]):
            version (str):
            approved_at (datetime.datetime | None | Unset): When the owner approved this version (the owner's own installs
                are approved as made);
                `null` while a key's install or update waits for the owner: it is not used until then.
            emoji (None | str | Unset):
     """

    availability: Availability
    description: str
    installed_at: datetime.datetime
    latest: str
    name: str
    paid: int
    slug: str
    triggers: list[str]
    version: str
    approved_at: datetime.datetime | None | Unset = UNSET
    emoji: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.availability import Availability # noqa: PLC0415
        availability = self.availability.to_dict()

        description = self.description

        installed_at = self.installed_at.isoformat()

        latest = self.latest

        name = self.name

        paid = self.paid

        slug = self.slug

        triggers = self.triggers



        version = self.version

        approved_at: None | str | Unset
        if isinstance(self.approved_at, Unset):
            approved_at = UNSET
        elif isinstance(self.approved_at, datetime.datetime):
            approved_at = self.approved_at.isoformat()
        else:
            approved_at = self.approved_at

        emoji: None | str | Unset
        if isinstance(self.emoji, Unset):
            emoji = UNSET
        else:
            emoji = self.emoji


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "availability": availability,
            "description": description,
            "installed_at": installed_at,
            "latest": latest,
            "name": name,
            "paid": paid,
            "slug": slug,
            "triggers": triggers,
            "version": version,
        })
        if approved_at is not UNSET:
            field_dict["approved_at"] = approved_at
        if emoji is not UNSET:
            field_dict["emoji"] = emoji

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.availability import Availability # noqa: PLC0415
        d = dict(src_dict)
        availability = Availability.from_dict(d.pop("availability"))




        description = d.pop("description")

        installed_at = datetime.datetime.fromisoformat(d.pop("installed_at"))




        latest = d.pop("latest")

        name = d.pop("name")

        paid = d.pop("paid")

        slug = d.pop("slug")

        triggers = cast(list[str], d.pop("triggers"))


        version = d.pop("version")

        def _parse_approved_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                approved_at_type_0 = datetime.datetime.fromisoformat(data)



                return approved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        approved_at = _parse_approved_at(d.pop("approved_at", UNSET))


        def _parse_emoji(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emoji = _parse_emoji(d.pop("emoji", UNSET))


        installed = cls(
            availability=availability,
            description=description,
            installed_at=installed_at,
            latest=latest,
            name=name,
            paid=paid,
            slug=slug,
            triggers=triggers,
            version=version,
            approved_at=approved_at,
            emoji=emoji,
        )


        installed.additional_properties = d
        return installed

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
