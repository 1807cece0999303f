from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Limits")



@_attrs_define
class Limits:
    """ The owner's limits on sends, in wei (decimal strings). `null` per-transaction or per-day
    limits mean nothing can be sent yet; `null` `confirm_above_wei` means no send waits for a
    confirmation.

        Attributes:
            confirm_above_wei (None | str | Unset):
            max_per_day_wei (None | str | Unset):
            max_per_tx_wei (None | str | Unset):
     """

    confirm_above_wei: None | str | Unset = UNSET
    max_per_day_wei: None | str | Unset = UNSET
    max_per_tx_wei: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        confirm_above_wei: None | str | Unset
        if isinstance(self.confirm_above_wei, Unset):
            confirm_above_wei = UNSET
        else:
            confirm_above_wei = self.confirm_above_wei

        max_per_day_wei: None | str | Unset
        if isinstance(self.max_per_day_wei, Unset):
            max_per_day_wei = UNSET
        else:
            max_per_day_wei = self.max_per_day_wei

        max_per_tx_wei: None | str | Unset
        if isinstance(self.max_per_tx_wei, Unset):
            max_per_tx_wei = UNSET
        else:
            max_per_tx_wei = self.max_per_tx_wei


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if confirm_above_wei is not UNSET:
            field_dict["confirm_above_wei"] = confirm_above_wei
        if max_per_day_wei is not UNSET:
            field_dict["max_per_day_wei"] = max_per_day_wei
        if max_per_tx_wei is not UNSET:
            field_dict["max_per_tx_wei"] = max_per_tx_wei

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_confirm_above_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        confirm_above_wei = _parse_confirm_above_wei(d.pop("confirm_above_wei", UNSET))


        def _parse_max_per_day_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        max_per_day_wei = _parse_max_per_day_wei(d.pop("max_per_day_wei", UNSET))


        def _parse_max_per_tx_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        max_per_tx_wei = _parse_max_per_tx_wei(d.pop("max_per_tx_wei", UNSET))


        limits = cls(
            confirm_above_wei=confirm_above_wei,
            max_per_day_wei=max_per_day_wei,
            max_per_tx_wei=max_per_tx_wei,
        )


        limits.additional_properties = d
        return limits

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
