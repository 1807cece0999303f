from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.availability import Availability
  from ..models.manifest import Manifest





T = TypeVar("T", bound="Checked")



@_attrs_define
class Checked:
    """ What a valid SKILL.md holds.

        Attributes:
            availability (Availability): Whether a skill can be used here, and if not, why.
            instructions_chars (int): Characters of instructions.
            manifest (Manifest): A parsed skill file.
     """

    availability: Availability
    instructions_chars: int
    manifest: Manifest
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.availability import Availability # noqa: PLC0415
        from ..models.manifest import Manifest # noqa: PLC0415
        availability = self.availability.to_dict()

        instructions_chars = self.instructions_chars

        manifest = self.manifest.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "availability": availability,
            "instructions_chars": instructions_chars,
            "manifest": manifest,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.availability import Availability # noqa: PLC0415
        from ..models.manifest import Manifest # noqa: PLC0415
        d = dict(src_dict)
        availability = Availability.from_dict(d.pop("availability"))




        instructions_chars = d.pop("instructions_chars")

        manifest = Manifest.from_dict(d.pop("manifest"))




        checked = cls(
            availability=availability,
            instructions_chars=instructions_chars,
            manifest=manifest,
        )


        checked.additional_properties = d
        return checked

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
