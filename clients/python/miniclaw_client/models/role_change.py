from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.team_role import TeamRole






T = TypeVar("T", bound="RoleChange")



@_attrs_define
class RoleChange:
    """ 
        Attributes:
            role (TeamRole): A member's role in the team, from least to most trusted.
     """

    role: TeamRole





    def to_dict(self) -> dict[str, Any]:
        role = self.role.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "role": role,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role = TeamRole(d.pop("role"))




        role_change = cls(
            role=role,
        )

        return role_change

