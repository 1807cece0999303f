from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.team_role import TeamRole
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.activity_entry import ActivityEntry
  from ..models.bundle import Bundle
  from ..models.owner_view import OwnerView
  from ..models.sign_in_device import SignInDevice
  from ..models.team import Team
  from ..models.tenant_view import TenantView





T = TypeVar("T", bound="AccountExport")



@_attrs_define
class AccountExport:
    """ 
        Attributes:
            account (TenantView):
            activity (list[ActivityEntry]): The account's activity, newest first, each entry naming the member who acted.
            agents (list[Bundle]): Every agent of the account with its conversations; for owners and admins only (empty for
                members and viewers, whose account it is not to carry away).
            devices (list[SignInDevice]):
            exported_at (datetime.datetime):
            format_ (str): `miniclaw.account`.
            member (OwnerView):
            role (TeamRole): A member's role in the team, from least to most trusted.
            team (Team): The team: its members and the invitations still open.
     """

    account: TenantView
    activity: list[ActivityEntry]
    agents: list[Bundle]
    devices: list[SignInDevice]
    exported_at: datetime.datetime
    format_: str
    member: OwnerView
    role: TeamRole
    team: Team
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_entry import ActivityEntry # noqa: PLC0415
        from ..models.bundle import Bundle # noqa: PLC0415
        from ..models.owner_view import OwnerView # noqa: PLC0415
        from ..models.sign_in_device import SignInDevice # noqa: PLC0415
        from ..models.team import Team # noqa: PLC0415
        from ..models.tenant_view import TenantView # noqa: PLC0415
        account = self.account.to_dict()

        activity = []
        for activity_item_data in self.activity:
            activity_item = activity_item_data.to_dict()
            activity.append(activity_item)



        agents = []
        for agents_item_data in self.agents:
            agents_item = agents_item_data.to_dict()
            agents.append(agents_item)



        devices = []
        for devices_item_data in self.devices:
            devices_item = devices_item_data.to_dict()
            devices.append(devices_item)



        exported_at = self.exported_at.isoformat()

        format_ = self.format_

        member = self.member.to_dict()

        role = self.role.value

        team = self.team.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "account": account,
            "activity": activity,
            "agents": agents,
            "devices": devices,
            "exported_at": exported_at,
            "format": format_,
            "member": member,
            "role": role,
            "team": team,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_entry import ActivityEntry # noqa: PLC0415
        from ..models.bundle import Bundle # noqa: PLC0415
        from ..models.owner_view import OwnerView # noqa: PLC0415
        from ..models.sign_in_device import SignInDevice # noqa: PLC0415
        from ..models.team import Team # noqa: PLC0415
        from ..models.tenant_view import TenantView # noqa: PLC0415
        d = dict(src_dict)
        account = TenantView.from_dict(d.pop("account"))




        activity = []
        _activity = d.pop("activity")
        for activity_item_data in (_activity):
            activity_item = ActivityEntry.from_dict(activity_item_data)



            activity.append(activity_item)


        agents = []
        _agents = d.pop("agents")
        for agents_item_data in (_agents):
            agents_item = Bundle.from_dict(agents_item_data)



            agents.append(agents_item)


        devices = []
        _devices = d.pop("devices")
        for devices_item_data in (_devices):
            devices_item = SignInDevice.from_dict(devices_item_data)



            devices.append(devices_item)


        exported_at = datetime.datetime.fromisoformat(d.pop("exported_at"))




        format_ = d.pop("format")

        member = OwnerView.from_dict(d.pop("member"))




        role = TeamRole(d.pop("role"))




        team = Team.from_dict(d.pop("team"))




        account_export = cls(
            account=account,
            activity=activity,
            agents=agents,
            devices=devices,
            exported_at=exported_at,
            format_=format_,
            member=member,
            role=role,
            team=team,
        )


        account_export.additional_properties = d
        return account_export

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
