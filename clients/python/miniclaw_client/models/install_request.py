from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="InstallRequest")



@_attrs_define
class InstallRequest:
    """ 
        Attributes:
            slug (str): The skill's name in the marketplace.
     """

    slug: str





    def to_dict(self) -> dict[str, Any]:
        slug = self.slug


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "slug": slug,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("slug")

        install_request = cls(
            slug=slug,
        )

        return install_request

