from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.team_role import TeamRole
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Invitation")



@_attrs_define
class Invitation:
    """ An invitation not yet followed.

        Attributes:
            created_at (datetime.datetime):
            email (str):
            expires_at (datetime.datetime):
            id (UUID):
            role (TeamRole): A member's role in the team, from least to most trusted.
            invited_by (None | str | Unset): The address of the member who sent it, while they are one.
     """

    created_at: datetime.datetime
    email: str
    expires_at: datetime.datetime
    id: UUID
    role: TeamRole
    invited_by: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        email = self.email

        expires_at = self.expires_at.isoformat()

        id = str(self.id)

        role = self.role.value

        invited_by: None | str | Unset
        if isinstance(self.invited_by, Unset):
            invited_by = UNSET
        else:
            invited_by = self.invited_by


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "email": email,
            "expires_at": expires_at,
            "id": id,
            "role": role,
        })
        if invited_by is not UNSET:
            field_dict["invited_by"] = invited_by

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        email = d.pop("email")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        id = UUID(d.pop("id"))




        role = TeamRole(d.pop("role"))




        def _parse_invited_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        invited_by = _parse_invited_by(d.pop("invited_by", UNSET))


        invitation = cls(
            created_at=created_at,
            email=email,
            expires_at=expires_at,
            id=id,
            role=role,
            invited_by=invited_by,
        )


        invitation.additional_properties = d
        return invitation

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
