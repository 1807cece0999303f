from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="ConnectRequest")



@_attrs_define
class ConnectRequest:
    """ 
        Attributes:
            agent_id (UUID):
            nonce (str):
            signature (str): EIP-191: 65 bytes as 0x-hex. Ed25519: 64 bytes as hex (128 digits) or base64 (88 chars).
            name (None | str | Unset): Optional: when given, must be the key name of the challenge.
            scopes (list[str] | None | Unset): Optional: when given, must be the scopes of the challenge (the key gets
                those).
     """

    agent_id: UUID
    nonce: str
    signature: str
    name: None | str | Unset = UNSET
    scopes: list[str] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        nonce = self.nonce

        signature = self.signature

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        scopes: list[str] | None | Unset
        if isinstance(self.scopes, Unset):
            scopes = UNSET
        elif isinstance(self.scopes, list):
            scopes = self.scopes


        else:
            scopes = self.scopes


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_id": agent_id,
            "nonce": nonce,
            "signature": signature,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if scopes is not UNSET:
            field_dict["scopes"] = scopes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        nonce = d.pop("nonce")

        signature = d.pop("signature")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_scopes(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                scopes_type_0 = cast(list[str], data)

                return scopes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        scopes = _parse_scopes(d.pop("scopes", UNSET))


        connect_request = cls(
            agent_id=agent_id,
            nonce=nonce,
            signature=signature,
            name=name,
            scopes=scopes,
        )

        return connect_request

