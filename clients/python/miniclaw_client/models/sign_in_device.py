from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="SignInDevice")



@_attrs_define
class SignInDevice:
    """ A browser a member signed in with.

        Attributes:
            first_seen (datetime.datetime):
            last_seen (datetime.datetime):
            user_agent (str):
     """

    first_seen: datetime.datetime
    last_seen: datetime.datetime
    user_agent: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        first_seen = self.first_seen.isoformat()

        last_seen = self.last_seen.isoformat()

        user_agent = self.user_agent


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "first_seen": first_seen,
            "last_seen": last_seen,
            "user_agent": user_agent,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first_seen = datetime.datetime.fromisoformat(d.pop("first_seen"))




        last_seen = datetime.datetime.fromisoformat(d.pop("last_seen"))




        user_agent = d.pop("user_agent")

        sign_in_device = cls(
            first_seen=first_seen,
            last_seen=last_seen,
            user_agent=user_agent,
        )


        sign_in_device.additional_properties = d
        return sign_in_device

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
