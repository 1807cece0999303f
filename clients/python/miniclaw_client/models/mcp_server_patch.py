from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="McpServerPatch")



@_attrs_define
class McpServerPatch:
    """ A change to an attached server's settings.

        Attributes:
            approval (None | str | Unset): `writes` or `never`.
            available_to (list[str] | None | Unset): As in `McpServerInput`.
     """

    approval: None | str | Unset = UNSET
    available_to: list[str] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
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


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if approval is not UNSET:
            field_dict["approval"] = approval
        if available_to is not UNSET:
            field_dict["available_to"] = available_to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
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


        mcp_server_patch = cls(
            approval=approval,
            available_to=available_to,
        )

        return mcp_server_patch

