from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="DomainProof")



@_attrs_define
class DomainProof:
    """ The TXT record that proves the agent's domain is its owner's. Until it is found (`POST
    …/identity/domain/verify`), the domain serves nothing, is not registered on chain and
    reserves nothing.

        Attributes:
            txt_name (str): The name to put the record at: `_miniclaw.<domain>`.
            txt_value (str): The record's text: `miniclaw-verify=<token>`.
            verified (bool):
            verified_at (datetime.datetime | None | Unset):
     """

    txt_name: str
    txt_value: str
    verified: bool
    verified_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        txt_name = self.txt_name

        txt_value = self.txt_value

        verified = self.verified

        verified_at: None | str | Unset
        if isinstance(self.verified_at, Unset):
            verified_at = UNSET
        elif isinstance(self.verified_at, datetime.datetime):
            verified_at = self.verified_at.isoformat()
        else:
            verified_at = self.verified_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "txt_name": txt_name,
            "txt_value": txt_value,
            "verified": verified,
        })
        if verified_at is not UNSET:
            field_dict["verified_at"] = verified_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        txt_name = d.pop("txt_name")

        txt_value = d.pop("txt_value")

        verified = d.pop("verified")

        def _parse_verified_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verified_at_type_0 = datetime.datetime.fromisoformat(data)



                return verified_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        verified_at = _parse_verified_at(d.pop("verified_at", UNSET))


        domain_proof = cls(
            txt_name=txt_name,
            txt_value=txt_value,
            verified=verified,
            verified_at=verified_at,
        )


        domain_proof.additional_properties = d
        return domain_proof

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
