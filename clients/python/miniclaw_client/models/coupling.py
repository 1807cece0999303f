from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Coupling")



@_attrs_define
class Coupling:
    """ The state of the relationship.

        Attributes:
            energy (float): The user's recent arousal (X6 fast EMA), -1–1.
            style (str): `brief` or `detailed`: how long the user's messages run (X8).
            trust (float): The proactive trust score (X7), 0–1.
     """

    energy: float
    style: str
    trust: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        energy = self.energy

        style = self.style

        trust = self.trust


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "energy": energy,
            "style": style,
            "trust": trust,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        energy = d.pop("energy")

        style = d.pop("style")

        trust = d.pop("trust")

        coupling = cls(
            energy=energy,
            style=style,
            trust=trust,
        )


        coupling.additional_properties = d
        return coupling

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
