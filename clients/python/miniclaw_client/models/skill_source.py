from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SkillSource")



@_attrs_define
class SkillSource:
    """ A SKILL.md file.

        Attributes:
            skill_md (str): The whole file: `---`, the YAML front matter, `---`, the markdown instructions.
     """

    skill_md: str





    def to_dict(self) -> dict[str, Any]:
        skill_md = self.skill_md


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "skill_md": skill_md,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        skill_md = d.pop("skill_md")

        skill_source = cls(
            skill_md=skill_md,
        )

        return skill_source

