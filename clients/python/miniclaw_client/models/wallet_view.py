from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.limits import Limits





T = TypeVar("T", bound="WalletView")



@_attrs_define
class WalletView:
    """ The wallet with its balance on the configured chain.

        Attributes:
            address (str): Lower-case 0x address.
            created_at (datetime.datetime):
            limits (Limits): The owner's limits on sends, in wei (decimal strings). `null` per-transaction or per-day
                limits mean nothing can be sent yet; `null` `confirm_above_wei` means no send waits for a
                confirmation.
            server_managed (bool): Always true: the key was generated and is kept by the server.
            balance_error (None | str | Unset): Why there is no balance.
            balance_wei (None | str | Unset): Native balance in wei (decimal string); `null` without a chain or when the
                node did not answer.
            chain_id (int | None | Unset): The configured chain, if any.
     """

    address: str
    created_at: datetime.datetime
    limits: Limits
    server_managed: bool
    balance_error: None | str | Unset = UNSET
    balance_wei: None | str | Unset = UNSET
    chain_id: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.limits import Limits # noqa: PLC0415
        address = self.address

        created_at = self.created_at.isoformat()

        limits = self.limits.to_dict()

        server_managed = self.server_managed

        balance_error: None | str | Unset
        if isinstance(self.balance_error, Unset):
            balance_error = UNSET
        else:
            balance_error = self.balance_error

        balance_wei: None | str | Unset
        if isinstance(self.balance_wei, Unset):
            balance_wei = UNSET
        else:
            balance_wei = self.balance_wei

        chain_id: int | None | Unset
        if isinstance(self.chain_id, Unset):
            chain_id = UNSET
        else:
            chain_id = self.chain_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "address": address,
            "created_at": created_at,
            "limits": limits,
            "server_managed": server_managed,
        })
        if balance_error is not UNSET:
            field_dict["balance_error"] = balance_error
        if balance_wei is not UNSET:
            field_dict["balance_wei"] = balance_wei
        if chain_id is not UNSET:
            field_dict["chain_id"] = chain_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.limits import Limits # noqa: PLC0415
        d = dict(src_dict)
        address = d.pop("address")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        limits = Limits.from_dict(d.pop("limits"))




        server_managed = d.pop("server_managed")

        def _parse_balance_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        balance_error = _parse_balance_error(d.pop("balance_error", UNSET))


        def _parse_balance_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        balance_wei = _parse_balance_wei(d.pop("balance_wei", UNSET))


        def _parse_chain_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        chain_id = _parse_chain_id(d.pop("chain_id", UNSET))


        wallet_view = cls(
            address=address,
            created_at=created_at,
            limits=limits,
            server_managed=server_managed,
            balance_error=balance_error,
            balance_wei=balance_wei,
            chain_id=chain_id,
        )


        wallet_view.additional_properties = d
        return wallet_view

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
