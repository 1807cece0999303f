from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.trace import Trace





T = TypeVar("T", bound="TraversalReport")



@_attrs_define
class TraversalReport:
    """ What learned traversal did (R8, X5).

        Attributes:
            candidates (int):
            searched (bool):
            note (None | str | Unset):
            path (None | Trace | Unset):
     """

    candidates: int
    searched: bool
    note: None | str | Unset = UNSET
    path: None | Trace | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trace import Trace # noqa: PLC0415
        candidates = self.candidates

        searched = self.searched

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        path: dict[str, Any] | None | Unset
        if isinstance(self.path, Unset):
            path = UNSET
        elif isinstance(self.path, Trace):
            path = self.path.to_dict()
        else:
            path = self.path


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "candidates": candidates,
            "searched": searched,
        })
        if note is not UNSET:
            field_dict["note"] = note
        if path is not UNSET:
            field_dict["path"] = path

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trace import Trace # noqa: PLC0415
        d = dict(src_dict)
        candidates = d.pop("candidates")

        searched = d.pop("searched")

        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))


        def _parse_path(data: object) -> None | Trace | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                path_type_1 = Trace.from_dict(data)



                return path_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Trace | Unset, data)

        path = _parse_path(d.pop("path", UNSET))


        traversal_report = cls(
            candidates=candidates,
            searched=searched,
            note=note,
            path=path,
        )


        traversal_report.additional_properties = d
        return traversal_report

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
