from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Closing")



@_attrs_define
class Closing:
    """ An account on its way out.

        Attributes:
            closing_at (datetime.datetime):
            purge_after (datetime.datetime): When everything goes for good, unless an owner reopens it before.
     """

    closing_at: datetime.datetime
    purge_after: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        closing_at = self.closing_at.isoformat()

        purge_after = self.purge_after.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "closing_at": closing_at,
            "purge_after": purge_after,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        closing_at = datetime.datetime.fromisoformat(d.pop("closing_at"))




        purge_after = datetime.datetime.fromisoformat(d.pop("purge_after"))




        closing = cls(
            closing_at=closing_at,
            purge_after=purge_after,
        )


        closing.additional_properties = d
        return closing

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
