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






T = TypeVar("T", bound="IssuedKey")



@_attrs_define
class IssuedKey:
    """ A newly issued key. `key` is shown this once; only its hash is stored.

        Attributes:
            agent_id (UUID):
            id (UUID):
            key (str):
            name (str):
            scopes (list[str]):
            daily_usd_cap (float | None | Unset):
            end_user (None | str | Unset):
            expires_at (datetime.datetime | None | Unset):
            rate_per_minute (int | None | Unset):
     """

    agent_id: UUID
    id: UUID
    key: str
    name: str
    scopes: list[str]
    daily_usd_cap: float | None | Unset = UNSET
    end_user: None | str | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    rate_per_minute: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        id = str(self.id)

        key = self.key

        name = self.name

        scopes = self.scopes



        daily_usd_cap: float | None | Unset
        if isinstance(self.daily_usd_cap, Unset):
            daily_usd_cap = UNSET
        else:
            daily_usd_cap = self.daily_usd_cap

        end_user: None | str | Unset
        if isinstance(self.end_user, Unset):
            end_user = UNSET
        else:
            end_user = self.end_user

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        rate_per_minute: int | None | Unset
        if isinstance(self.rate_per_minute, Unset):
            rate_per_minute = UNSET
        else:
            rate_per_minute = self.rate_per_minute


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "id": id,
            "key": key,
            "name": name,
            "scopes": scopes,
        })
        if daily_usd_cap is not UNSET:
            field_dict["daily_usd_cap"] = daily_usd_cap
        if end_user is not UNSET:
            field_dict["end_user"] = end_user
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if rate_per_minute is not UNSET:
            field_dict["rate_per_minute"] = rate_per_minute

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        id = UUID(d.pop("id"))




        key = d.pop("key")

        name = d.pop("name")

        scopes = cast(list[str], d.pop("scopes"))


        def _parse_daily_usd_cap(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        daily_usd_cap = _parse_daily_usd_cap(d.pop("daily_usd_cap", UNSET))


        def _parse_end_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_user = _parse_end_user(d.pop("end_user", UNSET))


        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        def _parse_rate_per_minute(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_per_minute = _parse_rate_per_minute(d.pop("rate_per_minute", UNSET))


        issued_key = cls(
            agent_id=agent_id,
            id=id,
            key=key,
            name=name,
            scopes=scopes,
            daily_usd_cap=daily_usd_cap,
            end_user=end_user,
            expires_at=expires_at,
            rate_per_minute=rate_per_minute,
        )


        issued_key.additional_properties = d
        return issued_key

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
