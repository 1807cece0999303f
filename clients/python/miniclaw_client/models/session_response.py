from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.owner_view import OwnerView
  from ..models.tenant_view import TenantView





T = TypeVar("T", bound="SessionResponse")



@_attrs_define
class SessionResponse:
    """ 
        Attributes:
            owner (OwnerView):
            refresh_token (str): Exchange at `POST /v1/auth/refresh` for a new session token (30 days, rotated on use);
                also set as the `mc_refresh` cookie.
            session_token (str): Bearer token for the API (15 minutes); also set as the `mc_session` cookie.
            tenant (TenantView):
     """

    owner: OwnerView
    refresh_token: str
    session_token: str
    tenant: TenantView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.owner_view import OwnerView # noqa: PLC0415
        from ..models.tenant_view import TenantView # noqa: PLC0415
        owner = self.owner.to_dict()

        refresh_token = self.refresh_token

        session_token = self.session_token

        tenant = self.tenant.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "owner": owner,
            "refresh_token": refresh_token,
            "session_token": session_token,
            "tenant": tenant,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.owner_view import OwnerView # noqa: PLC0415
        from ..models.tenant_view import TenantView # noqa: PLC0415
        d = dict(src_dict)
        owner = OwnerView.from_dict(d.pop("owner"))




        refresh_token = d.pop("refresh_token")

        session_token = d.pop("session_token")

        tenant = TenantView.from_dict(d.pop("tenant"))




        session_response = cls(
            owner=owner,
            refresh_token=refresh_token,
            session_token=session_token,
            tenant=tenant,
        )


        session_response.additional_properties = d
        return session_response

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
