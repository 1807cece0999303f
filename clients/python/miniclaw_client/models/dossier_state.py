from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.dossier import Dossier





T = TypeVar("T", bound="DossierState")



@_attrs_define
class DossierState:
    """ The dossier with whether chat would use it now.

        Attributes:
            dossier (Dossier):
            fresh (bool): No memory changed since it was compiled.
     """

    dossier: Dossier
    fresh: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.dossier import Dossier # noqa: PLC0415
        dossier = self.dossier.to_dict()

        fresh = self.fresh


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "dossier": dossier,
            "fresh": fresh,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dossier import Dossier # noqa: PLC0415
        d = dict(src_dict)
        dossier = Dossier.from_dict(d.pop("dossier"))




        fresh = d.pop("fresh")

        dossier_state = cls(
            dossier=dossier,
            fresh=fresh,
        )


        dossier_state.additional_properties = d
        return dossier_state

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
