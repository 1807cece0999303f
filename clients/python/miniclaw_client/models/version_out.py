from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.version_out_snapshot import VersionOutSnapshot





T = TypeVar("T", bound="VersionOut")



@_attrs_define
class VersionOut:
    """ One version of a memory, as an export carries it.

        Attributes:
            change (str):
            created_at (datetime.datetime):
            snapshot (VersionOutSnapshot):
            version (int):
     """

    change: str
    created_at: datetime.datetime
    snapshot: VersionOutSnapshot
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.version_out_snapshot import VersionOutSnapshot # noqa: PLC0415
        change = self.change

        created_at = self.created_at.isoformat()

        snapshot = self.snapshot.to_dict()

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "change": change,
            "created_at": created_at,
            "snapshot": snapshot,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.version_out_snapshot import VersionOutSnapshot # noqa: PLC0415
        d = dict(src_dict)
        change = d.pop("change")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        snapshot = VersionOutSnapshot.from_dict(d.pop("snapshot"))




        version = d.pop("version")

        version_out = cls(
            change=change,
            created_at=created_at,
            snapshot=snapshot,
            version=version,
        )


        version_out.additional_properties = d
        return version_out

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
