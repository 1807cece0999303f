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






T = TypeVar("T", bound="IssuedAccountKey")



@_attrs_define
class IssuedAccountKey:
    """ A newly issued account key. `key` is shown this once; only its hash is stored.

        Attributes:
            created_at (datetime.datetime):
            created_by (str): `owner:<id>`: the member who issued it.
            id (UUID):
            name (str):
            scopes (list[str]):
            key (str):
            agents (list[UUID] | None | Unset): The agents it reaches; `null`: every agent of the account, now and later.
            daily_usd_cap (float | None | Unset): The most the key's work may cost a day, in dollars (UTC days).
            expires_at (datetime.datetime | None | Unset):
            last_used_at (datetime.datetime | None | Unset):
            rate_per_minute (int | None | Unset): The key's own requests per minute (within the platform's limit for every
                key).
            revoked_at (datetime.datetime | None | Unset):
     """

    created_at: datetime.datetime
    created_by: str
    id: UUID
    name: str
    scopes: list[str]
    key: str
    agents: list[UUID] | None | Unset = UNSET
    daily_usd_cap: float | None | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    last_used_at: datetime.datetime | None | Unset = UNSET
    rate_per_minute: int | None | Unset = UNSET
    revoked_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        created_by = self.created_by

        id = str(self.id)

        name = self.name

        scopes = self.scopes



        key = self.key

        agents: list[str] | None | Unset
        if isinstance(self.agents, Unset):
            agents = UNSET
        elif isinstance(self.agents, list):
            agents = []
            for agents_type_0_item_data in self.agents:
                agents_type_0_item = str(agents_type_0_item_data)
                agents.append(agents_type_0_item)


        else:
            agents = self.agents

        daily_usd_cap: float | None | Unset
        if isinstance(self.daily_usd_cap, Unset):
            daily_usd_cap = UNSET
        else:
            daily_usd_cap = self.daily_usd_cap

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        last_used_at: None | str | Unset
        if isinstance(self.last_used_at, Unset):
            last_used_at = UNSET
        elif isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        rate_per_minute: int | None | Unset
        if isinstance(self.rate_per_minute, Unset):
            rate_per_minute = UNSET
        else:
            rate_per_minute = self.rate_per_minute

        revoked_at: None | str | Unset
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        elif isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "created_by": created_by,
            "id": id,
            "name": name,
            "scopes": scopes,
            "key": key,
        })
        if agents is not UNSET:
            field_dict["agents"] = agents
        if daily_usd_cap is not UNSET:
            field_dict["daily_usd_cap"] = daily_usd_cap
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if last_used_at is not UNSET:
            field_dict["last_used_at"] = last_used_at
        if rate_per_minute is not UNSET:
            field_dict["rate_per_minute"] = rate_per_minute
        if revoked_at is not UNSET:
            field_dict["revoked_at"] = revoked_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        created_by = d.pop("created_by")

        id = UUID(d.pop("id"))




        name = d.pop("name")

        scopes = cast(list[str], d.pop("scopes"))


        key = d.pop("key")

        def _parse_agents(data: object) -> list[UUID] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                agents_type_0 = []
                _agents_type_0 = data
                for agents_type_0_item_data in (_agents_type_0):
                    agents_type_0_item = UUID(agents_type_0_item_data)



                    agents_type_0.append(agents_type_0_item)

                return agents_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None | Unset, data)

        agents = _parse_agents(d.pop("agents", UNSET))


        def _parse_daily_usd_cap(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        daily_usd_cap = _parse_daily_usd_cap(d.pop("daily_usd_cap", UNSET))


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


        def _parse_last_used_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at", UNSET))


        def _parse_rate_per_minute(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_per_minute = _parse_rate_per_minute(d.pop("rate_per_minute", UNSET))


        def _parse_revoked_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)



                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at", UNSET))


        issued_account_key = cls(
            created_at=created_at,
            created_by=created_by,
            id=id,
            name=name,
            scopes=scopes,
            key=key,
            agents=agents,
            daily_usd_cap=daily_usd_cap,
            expires_at=expires_at,
            last_used_at=last_used_at,
            rate_per_minute=rate_per_minute,
            revoked_at=revoked_at,
        )


        issued_account_key.additional_properties = d
        return issued_account_key

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
