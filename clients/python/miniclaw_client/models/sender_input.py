from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SenderInput")



@_attrs_define
class SenderInput:
    """ A tenant's sender identity for outgoing email (`null`: the platform default).

        Attributes:
            from_address (None | str | Unset): The From address (default: `MINICLAW_EMAIL_FROM`). Replies come back to it,
                so it must
                be an address whose inbound mail reaches the webhook. Setting a new one mails a link to
                it; until the link is followed, mail goes from the platform's address with this one as
                `Reply-To`.
            from_name (None | str | Unset): The From name (default: the agent's name).
     """

    from_address: None | str | Unset = UNSET
    from_name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from_address: None | str | Unset
        if isinstance(self.from_address, Unset):
            from_address = UNSET
        else:
            from_address = self.from_address

        from_name: None | str | Unset
        if isinstance(self.from_name, Unset):
            from_name = UNSET
        else:
            from_name = self.from_name


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if from_address is not UNSET:
            field_dict["from_address"] = from_address
        if from_name is not UNSET:
            field_dict["from_name"] = from_name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_from_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_address = _parse_from_address(d.pop("from_address", UNSET))


        def _parse_from_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_name = _parse_from_name(d.pop("from_name", UNSET))


        sender_input = cls(
            from_address=from_address,
            from_name=from_name,
        )

        return sender_input

