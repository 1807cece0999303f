from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="McpServerInput")



@_attrs_define
class McpServerInput:
    """ 
        Attributes:
            name (str):
            url (str): The server's Streamable HTTP endpoint (http or https, a public address unless the
                operator allows it in `MINICLAW_URL_ALLOWLIST`).
            approval (None | str | Unset): `writes` (default) or `never`.
            available_to (list[str] | None | Unset): The speakers whose turns may run its tools besides the owner in person
                (default: none):
                `owner_key`, `end_user`, `correspondent`, `peer`, `payer`.
            secret (None | str | Unset): Sent as `Authorization: Bearer <secret>`; stored sealed.
     """

    name: str
    url: str
    approval: None | str | Unset = UNSET
    available_to: list[str] | None | Unset = UNSET
    secret: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        url = self.url

        approval: None | str | Unset
        if isinstance(self.approval, Unset):
            approval = UNSET
        else:
            approval = self.approval

        available_to: list[str] | None | Unset
        if isinstance(self.available_to, Unset):
            available_to = UNSET
        elif isinstance(self.available_to, list):
            available_to = self.available_to


        else:
            available_to = self.available_to

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "url": url,
        })
        if approval is not UNSET:
            field_dict["approval"] = approval
        if available_to is not UNSET:
            field_dict["available_to"] = available_to
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        url = d.pop("url")

        def _parse_approval(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        approval = _parse_approval(d.pop("approval", UNSET))


        def _parse_available_to(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                available_to_type_0 = cast(list[str], data)

                return available_to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        available_to = _parse_available_to(d.pop("available_to", UNSET))


        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))


        mcp_server_input = cls(
            name=name,
            url=url,
            approval=approval,
            available_to=available_to,
            secret=secret,
        )

        return mcp_server_input

