from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CreateKeyRequest")



@_attrs_define
class CreateKeyRequest:
    """ 
        Attributes:
            name (str): A label, 1–64 characters.
            scopes (list[str]): e.g. `["chat:write", "memories:read"]`; `*` for everything.
            daily_usd_cap (float | None | Unset): The most the key's work may cost a UTC day, in dollars: past it, its chat
                turns and
                other paid work are refused (429 `key_spend_cap`) until midnight UTC.
            end_user (None | str | Unset): Bind the key to one end user of a miniapp (1–128 characters): it then sees and
                continues
                only that user's conversations, and a request naming another user (`X-Miniclaw-User`,
                the OpenAI `user`) is 403. For keys that ship to a user's device.
            expires_at (datetime.datetime | None | Unset):
            rate_per_minute (int | None | Unset): The key's own requests per minute (1–100000), within the platform's rate
                for every key.
     """

    name: str
    scopes: list[str]
    daily_usd_cap: float | None | Unset = UNSET
    end_user: None | str | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    rate_per_minute: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
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

        field_dict.update({
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


        create_key_request = cls(
            name=name,
            scopes=scopes,
            daily_usd_cap=daily_usd_cap,
            end_user=end_user,
            expires_at=expires_at,
            rate_per_minute=rate_per_minute,
        )

        return create_key_request

