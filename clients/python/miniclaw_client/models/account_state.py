from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.closing import Closing





T = TypeVar("T", bound="AccountState")



@_attrs_define
class AccountState:
    """ 
        Attributes:
            closing (Closing | None | Unset):
     """

    closing: Closing | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.closing import Closing # noqa: PLC0415
        closing: dict[str, Any] | None | Unset
        if isinstance(self.closing, Unset):
            closing = UNSET
        elif isinstance(self.closing, Closing):
            closing = self.closing.to_dict()
        else:
            closing = self.closing


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if closing is not UNSET:
            field_dict["closing"] = closing

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.closing import Closing # noqa: PLC0415
        d = dict(src_dict)
        def _parse_closing(data: object) -> Closing | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                closing_type_1 = Closing.from_dict(data)



                return closing_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Closing | None | Unset, data)

        closing = _parse_closing(d.pop("closing", UNSET))


        account_state = cls(
            closing=closing,
        )


        account_state.additional_properties = d
        return account_state

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
