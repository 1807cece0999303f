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






T = TypeVar("T", bound="CreateAccountKeyRequest")



@_attrs_define
class CreateAccountKeyRequest:
    """ 
        Attributes:
            name (str): A label, 1–64 characters.
            scopes (list[str]): e.g. `["chat:write", "memories:read"]`; `*` for everything. The same scopes as an
                agent's key, held on every agent the key reaches.
            agents (list[UUID] | None | Unset): The agents the key reaches (1–1000 of the account's); leave out for every
                agent of the
                account, now and later.
            daily_usd_cap (float | None | Unset): The most the key's work may cost a UTC day, in dollars: past it, its chat
                turns and
                other paid work are refused (429 `key_spend_cap`) until midnight UTC.
            expires_at (datetime.datetime | None | Unset):
            rate_per_minute (int | None | Unset): The key's own requests per minute (1–100000), within the platform's rate
                for every key.
     """

    name: str
    scopes: list[str]
    agents: list[UUID] | None | Unset = UNSET
    daily_usd_cap: float | None | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    rate_per_minute: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        scopes = self.scopes



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

        rate_per_minute: int | None | Unset
        if isinstance(self.rate_per_minute, Unset):
            rate_per_minute = UNSET
        else:
            rate_per_minute = self.rate_per_minute


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "scopes": scopes,
        })
        if agents is not UNSET:
            field_dict["agents"] = agents
        if daily_usd_cap is not UNSET:
            field_dict["daily_usd_cap"] = daily_usd_cap
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if rate_per_minute is not UNSET:
            field_dict["rate_per_minute"] = rate_per_minute

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        scopes = cast(list[str], d.pop("scopes"))


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


        def _parse_rate_per_minute(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_per_minute = _parse_rate_per_minute(d.pop("rate_per_minute", UNSET))


        create_account_key_request = cls(
            name=name,
            scopes=scopes,
            agents=agents,
            daily_usd_cap=daily_usd_cap,
            expires_at=expires_at,
            rate_per_minute=rate_per_minute,
        )

        return create_account_key_request

