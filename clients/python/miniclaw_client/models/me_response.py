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





T = TypeVar("T", bound="MeResponse")



@_attrs_define
class MeResponse:
    """ 
        Attributes:
            email_verified (bool): Whether the owner's email is proven (the link mailed at signup was followed). Until it
                is, no mail goes to it and the account is held to a new account's model allowance.
            owner (OwnerView):
            tenant (TenantView):
     """

    email_verified: bool
    owner: OwnerView
    tenant: TenantView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.owner_view import OwnerView # noqa: PLC0415
        from ..models.tenant_view import TenantView # noqa: PLC0415
        email_verified = self.email_verified

        owner = self.owner.to_dict()

        tenant = self.tenant.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "email_verified": email_verified,
            "owner": owner,
            "tenant": tenant,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.owner_view import OwnerView # noqa: PLC0415
        from ..models.tenant_view import TenantView # noqa: PLC0415
        d = dict(src_dict)
        email_verified = d.pop("email_verified")

        owner = OwnerView.from_dict(d.pop("owner"))




        tenant = TenantView.from_dict(d.pop("tenant"))




        me_response = cls(
            email_verified=email_verified,
            owner=owner,
            tenant=tenant,
        )


        me_response.additional_properties = d
        return me_response

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
