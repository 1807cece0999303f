from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.limits import Limits





T = TypeVar("T", bound="Wallet")



@_attrs_define
class Wallet:
    """ An agent's wallet as clients see it: the address, never the key.

        Attributes:
            address (str): Lower-case 0x address.
            created_at (datetime.datetime):
            limits (Limits): The owner's limits on sends, in wei (decimal strings). `null` per-transaction or per-day
                limits mean nothing can be sent yet; `null` `confirm_above_wei` means no send waits for a
                confirmation.
            server_managed (bool): Always true: the key was generated and is kept by the server.
     """

    address: str
    created_at: datetime.datetime
    limits: Limits
    server_managed: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.limits import Limits # noqa: PLC0415
        address = self.address

        created_at = self.created_at.isoformat()

        limits = self.limits.to_dict()

        server_managed = self.server_managed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "address": address,
            "created_at": created_at,
            "limits": limits,
            "server_managed": server_managed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.limits import Limits # noqa: PLC0415
        d = dict(src_dict)
        address = d.pop("address")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        limits = Limits.from_dict(d.pop("limits"))




        server_managed = d.pop("server_managed")

        wallet = cls(
            address=address,
            created_at=created_at,
            limits=limits,
            server_managed=server_managed,
        )


        wallet.additional_properties = d
        return wallet

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
