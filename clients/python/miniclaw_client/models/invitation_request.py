from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.team_role import TeamRole






T = TypeVar("T", bound="InvitationRequest")



@_attrs_define
class InvitationRequest:
    """ 
        Attributes:
            email (str):
            role (TeamRole): A member's role in the team, from least to most trusted.
     """

    email: str
    role: TeamRole





    def to_dict(self) -> dict[str, Any]:
        email = self.email

        role = self.role.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "email": email,
            "role": role,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        role = TeamRole(d.pop("role"))




        invitation_request = cls(
            email=email,
            role=role,
        )

        return invitation_request

