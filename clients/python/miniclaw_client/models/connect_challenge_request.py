from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="ConnectChallengeRequest")



@_attrs_define
class ConnectChallengeRequest:
    """ 
        Attributes:
            agent_id (UUID):
            scopes (list[str]): The scopes the key will hold: within what the owner allows for connects
                (`connect_scopes` of the agent), else 403 `scope_not_allowed`.
            address (None | str | Unset): The wallet to sign with (EIP-191). Give this or `ed25519_public_key`.
            ed25519_public_key (None | str | Unset): The Ed25519 public key to sign with: 32 bytes as hex (64 digits) or
                base64 (44 chars).
            expires_in_days (int | None | Unset): Lifetime of the key in days: at most, and by default,
                `MINICLAW_CONNECT_KEY_DAYS` (30).
            name (None | str | Unset): Label for the key; default `connect`.
     """

    agent_id: UUID
    scopes: list[str]
    address: None | str | Unset = UNSET
    ed25519_public_key: None | str | Unset = UNSET
    expires_in_days: int | None | Unset = UNSET
    name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        scopes = self.scopes



        address: None | str | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        else:
            address = self.address

        ed25519_public_key: None | str | Unset
        if isinstance(self.ed25519_public_key, Unset):
            ed25519_public_key = UNSET
        else:
            ed25519_public_key = self.ed25519_public_key

        expires_in_days: int | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_id": agent_id,
            "scopes": scopes,
        })
        if address is not UNSET:
            field_dict["address"] = address
        if ed25519_public_key is not UNSET:
            field_dict["ed25519_public_key"] = ed25519_public_key
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        scopes = cast(list[str], d.pop("scopes"))


        def _parse_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        address = _parse_address(d.pop("address", UNSET))


        def _parse_ed25519_public_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ed25519_public_key = _parse_ed25519_public_key(d.pop("ed25519_public_key", UNSET))


        def _parse_expires_in_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expires_in_days", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        connect_challenge_request = cls(
            agent_id=agent_id,
            scopes=scopes,
            address=address,
            ed25519_public_key=ed25519_public_key,
            expires_in_days=expires_in_days,
            name=name,
        )

        return connect_challenge_request

