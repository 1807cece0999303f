from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TipTotals")



@_attrs_define
class TipTotals:
    """ 
        Attributes:
            given (int):
            given_credits (int): Credits given as tips and gifts (completed).
            received (int):
            received_credits (int): Credits received as tips (completed).
     """

    given: int
    given_credits: int
    received: int
    received_credits: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        given = self.given

        given_credits = self.given_credits

        received = self.received

        received_credits = self.received_credits


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "given": given,
            "given_credits": given_credits,
            "received": received,
            "received_credits": received_credits,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        given = d.pop("given")

        given_credits = d.pop("given_credits")

        received = d.pop("received")

        received_credits = d.pop("received_credits")

        tip_totals = cls(
            given=given,
            given_credits=given_credits,
            received=received,
            received_credits=received_credits,
        )


        tip_totals.additional_properties = d
        return tip_totals

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
