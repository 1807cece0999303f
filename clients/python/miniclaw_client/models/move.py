from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Move")



@_attrs_define
class Move:
    """ A move of a task.

        Attributes:
            to (str): `approved`, `in_progress`, `done` or `rejected`.
            reason (None | str | Unset): Why (kept with the task; e.g. the reason of a rejection), at most 500 characters.
     """

    to: str
    reason: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        to = self.to

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "to": to,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        to = d.pop("to")

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        move = cls(
            to=to,
            reason=reason,
        )

        return move

