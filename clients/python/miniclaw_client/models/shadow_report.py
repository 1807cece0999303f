from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.side import Side





T = TypeVar("T", bound="ShadowReport")



@_attrs_define
class ShadowReport:
    """ 
        Attributes:
            agreement (float): shared / (shared + primary only + alternate only); 1 when both found nothing.
            alternate (Side):
            alternate_only (list[str]):
            primary (Side):
            primary_only (list[str]):
            shared (list[str]):
     """

    agreement: float
    alternate: Side
    alternate_only: list[str]
    primary: Side
    primary_only: list[str]
    shared: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.side import Side # noqa: PLC0415
        agreement = self.agreement

        alternate = self.alternate.to_dict()

        alternate_only = self.alternate_only



        primary = self.primary.to_dict()

        primary_only = self.primary_only



        shared = self.shared




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agreement": agreement,
            "alternate": alternate,
            "alternate_only": alternate_only,
            "primary": primary,
            "primary_only": primary_only,
            "shared": shared,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.side import Side # noqa: PLC0415
        d = dict(src_dict)
        agreement = d.pop("agreement")

        alternate = Side.from_dict(d.pop("alternate"))




        alternate_only = cast(list[str], d.pop("alternate_only"))


        primary = Side.from_dict(d.pop("primary"))




        primary_only = cast(list[str], d.pop("primary_only"))


        shared = cast(list[str], d.pop("shared"))


        shadow_report = cls(
            agreement=agreement,
            alternate=alternate,
            alternate_only=alternate_only,
            primary=primary,
            primary_only=primary_only,
            shared=shared,
        )


        shadow_report.additional_properties = d
        return shadow_report

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
