from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PortableSkill")



@_attrs_define
class PortableSkill:
    """ A skill the agent had installed.

        Attributes:
            slug (str):
            version (str):
     """

    slug: str
    version: str





    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "slug": slug,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("slug")

        version = d.pop("version")

        portable_skill = cls(
            slug=slug,
            version=version,
        )

        return portable_skill

