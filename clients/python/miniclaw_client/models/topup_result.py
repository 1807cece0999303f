from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.topup import Topup





T = TypeVar("T", bound="TopupResult")



@_attrs_define
class TopupResult:
    """ What a top-up request did.

        Attributes:
            reason (str): Why not, or what was sent.
            topped_up (bool):
            topup (None | Topup | Unset):
     """

    reason: str
    topped_up: bool
    topup: None | Topup | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.topup import Topup # noqa: PLC0415
        reason = self.reason

        topped_up = self.topped_up

        topup: dict[str, Any] | None | Unset
        if isinstance(self.topup, Unset):
            topup = UNSET
        elif isinstance(self.topup, Topup):
            topup = self.topup.to_dict()
        else:
            topup = self.topup


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "reason": reason,
            "topped_up": topped_up,
        })
        if topup is not UNSET:
            field_dict["topup"] = topup

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.topup import Topup # noqa: PLC0415
        d = dict(src_dict)
        reason = d.pop("reason")

        topped_up = d.pop("topped_up")

        def _parse_topup(data: object) -> None | Topup | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                topup_type_1 = Topup.from_dict(data)



                return topup_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Topup | Unset, data)

        topup = _parse_topup(d.pop("topup", UNSET))


        topup_result = cls(
            reason=reason,
            topped_up=topped_up,
            topup=topup,
        )


        topup_result.additional_properties = d
        return topup_result

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
