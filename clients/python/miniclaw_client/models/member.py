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






T = TypeVar("T", bound="Member")



@_attrs_define
class Member:
    """ One member, as the team page lists them.

        Attributes:
            created_at (datetime.datetime):
            id (UUID):
            role (TeamRole): A member's role in the team, from least to most trusted.
            you (bool): This is the member asking.
            email (None | str | Unset):
            evm_address (None | str | Unset):
            last_login_at (datetime.datetime | None | Unset):
     """

    created_at: datetime.datetime
    id: UUID
    role: TeamRole
    you: bool
    email: None | str | Unset = UNSET
    evm_address: None | str | Unset = UNSET
    last_login_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        role = self.role.value

        you = self.you

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        evm_address: None | str | Unset
        if isinstance(self.evm_address, Unset):
            evm_address = UNSET
        else:
            evm_address = self.evm_address

        last_login_at: None | str | Unset
        if isinstance(self.last_login_at, Unset):
            last_login_at = UNSET
        elif isinstance(self.last_login_at, datetime.datetime):
            last_login_at = self.last_login_at.isoformat()
        else:
            last_login_at = self.last_login_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "id": id,
            "role": role,
            "you": you,
        })
        if email is not UNSET:
            field_dict["email"] = email
        if evm_address is not UNSET:
            field_dict["evm_address"] = evm_address
        if last_login_at is not UNSET:
            field_dict["last_login_at"] = last_login_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        role = TeamRole(d.pop("role"))




        you = d.pop("you")

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))


        def _parse_evm_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        evm_address = _parse_evm_address(d.pop("evm_address", UNSET))


        def _parse_last_login_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_login_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_login_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_login_at = _parse_last_login_at(d.pop("last_login_at", UNSET))


        member = cls(
            created_at=created_at,
            id=id,
            role=role,
            you=you,
            email=email,
            evm_address=evm_address,
            last_login_at=last_login_at,
        )


        member.additional_properties = d
        return member

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
