from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.soul_version import SoulVersion





T = TypeVar("T", bound="Soul")



@_attrs_define
class Soul:
    """ The current soul; `version` 0 and no content when the agent has none yet.

        Attributes:
            version (int):
            content (None | str | Unset):
            current (None | SoulVersion | Unset):
     """

    version: int
    content: None | str | Unset = UNSET
    current: None | SoulVersion | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.soul_version import SoulVersion # noqa: PLC0415
        version = self.version

        content: None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        else:
            content = self.content

        current: dict[str, Any] | None | Unset
        if isinstance(self.current, Unset):
            current = UNSET
        elif isinstance(self.current, SoulVersion):
            current = self.current.to_dict()
        else:
            current = self.current


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "version": version,
        })
        if content is not UNSET:
            field_dict["content"] = content
        if current is not UNSET:
            field_dict["current"] = current

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.soul_version import SoulVersion # noqa: PLC0415
        d = dict(src_dict)
        version = d.pop("version")

        def _parse_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))


        def _parse_current(data: object) -> None | SoulVersion | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                current_type_1 = SoulVersion.from_dict(data)



                return current_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SoulVersion | Unset, data)

        current = _parse_current(d.pop("current", UNSET))


        soul = cls(
            version=version,
            content=content,
            current=current,
        )


        soul.additional_properties = d
        return soul

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
