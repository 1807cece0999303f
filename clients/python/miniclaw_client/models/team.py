from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.invitation import Invitation
  from ..models.member import Member





T = TypeVar("T", bound="Team")



@_attrs_define
class Team:
    """ The team: its members and the invitations still open.

        Attributes:
            invitations (list[Invitation]):
            members (list[Member]):
     """

    invitations: list[Invitation]
    members: list[Member]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.invitation import Invitation # noqa: PLC0415
        from ..models.member import Member # noqa: PLC0415
        invitations = []
        for invitations_item_data in self.invitations:
            invitations_item = invitations_item_data.to_dict()
            invitations.append(invitations_item)



        members = []
        for members_item_data in self.members:
            members_item = members_item_data.to_dict()
            members.append(members_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "invitations": invitations,
            "members": members,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.invitation import Invitation # noqa: PLC0415
        from ..models.member import Member # noqa: PLC0415
        d = dict(src_dict)
        invitations = []
        _invitations = d.pop("invitations")
        for invitations_item_data in (_invitations):
            invitations_item = Invitation.from_dict(invitations_item_data)



            invitations.append(invitations_item)


        members = []
        _members = d.pop("members")
        for members_item_data in (_members):
            members_item = Member.from_dict(members_item_data)



            members.append(members_item)


        team = cls(
            invitations=invitations,
            members=members,
        )


        team.additional_properties = d
        return team

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
