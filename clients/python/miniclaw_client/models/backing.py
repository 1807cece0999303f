from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Backing")



@_attrs_define
class Backing:
    """ The backing boost: `min(total / 100000, 0.10)`.

        Attributes:
            boost (float):
            multiplier (float): `1 + boost`.
            source (str):
            total (float):
     """

    boost: float
    multiplier: float
    source: str
    total: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        boost = self.boost

        multiplier = self.multiplier

        source = self.source

        total = self.total


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "boost": boost,
            "multiplier": multiplier,
            "source": source,
            "total": total,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        boost = d.pop("boost")

        multiplier = d.pop("multiplier")

        source = d.pop("source")

        total = d.pop("total")

        backing = cls(
            boost=boost,
            multiplier=multiplier,
            source=source,
            total=total,
        )


        backing.additional_properties = d
        return backing

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
