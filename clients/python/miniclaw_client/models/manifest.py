from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.install_step import InstallStep
  from ..models.requires import Requires





T = TypeVar("T", bound="Manifest")



@_attrs_define
class Manifest:
    """ A parsed skill file.

        Attributes:
            description (str):
            install (list[InstallStep]): How an operator would meet the requirements (shown, never run by the platform).
            name (str): The skill's slug: lower-case letters, digits, `-` and `_`, at most 64.
            os (list[str]): Operating systems the skill runs on (`linux`, `darwin`, `win32`); empty: any.
            requires (Requires): What a skill needs from the deployment.
            triggers (list[str]): Words or phrases that bring the instructions into a conversation.
            version (str): `MAJOR.MINOR.PATCH`; `1.0.0` when the file does not say.
            emoji (None | str | Unset):
     """

    description: str
    install: list[InstallStep]
    name: str
    os: list[str]
    requires: Requires
    triggers: list[str]
    version: str
    emoji: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.install_step import InstallStep # noqa: PLC0415
        from ..models.requires import Requires # noqa: PLC0415
        description = self.description

        install = []
        for install_item_data in self.install:
            install_item = install_item_data.to_dict()
            install.append(install_item)



        name = self.name

        os = self.os



        requires = self.requires.to_dict()

        triggers = self.triggers



        version = self.version

        emoji: None | str | Unset
        if isinstance(self.emoji, Unset):
            emoji = UNSET
        else:
            emoji = self.emoji


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "description": description,
            "install": install,
            "name": name,
            "os": os,
            "requires": requires,
            "triggers": triggers,
            "version": version,
        })
        if emoji is not UNSET:
            field_dict["emoji"] = emoji

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.install_step import InstallStep # noqa: PLC0415
        from ..models.requires import Requires # noqa: PLC0415
        d = dict(src_dict)
        description = d.pop("description")

        install = []
        _install = d.pop("install")
        for install_item_data in (_install):
            install_item = InstallStep.from_dict(install_item_data)



            install.append(install_item)


        name = d.pop("name")

        os = cast(list[str], d.pop("os"))


        requires = Requires.from_dict(d.pop("requires"))




        triggers = cast(list[str], d.pop("triggers"))


        version = d.pop("version")

        def _parse_emoji(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emoji = _parse_emoji(d.pop("emoji", UNSET))


        manifest = cls(
            description=description,
            install=install,
            name=name,
            os=os,
            requires=requires,
            triggers=triggers,
            version=version,
            emoji=emoji,
        )


        manifest.additional_properties = d
        return manifest

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
