from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Requires")



@_attrs_define
class Requires:
    """ What a skill needs from the deployment.

        Attributes:
            any_bins (list[str] | Unset): Programs of which at least one must be on the PATH.
            bins (list[str] | Unset): Programs that must all be on the PATH.
            config (list[str] | Unset): OpenClaw configuration keys; this platform has none, so a skill that needs one is
                unavailable here.
            env (list[str] | Unset): Environment variables that must be set.
     """

    any_bins: list[str] | Unset = UNSET
    bins: list[str] | Unset = UNSET
    config: list[str] | Unset = UNSET
    env: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        any_bins: list[str] | Unset = UNSET
        if not isinstance(self.any_bins, Unset):
            any_bins = self.any_bins



        bins: list[str] | Unset = UNSET
        if not isinstance(self.bins, Unset):
            bins = self.bins



        config: list[str] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config



        env: list[str] | Unset = UNSET
        if not isinstance(self.env, Unset):
            env = self.env




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if any_bins is not UNSET:
            field_dict["anyBins"] = any_bins
        if bins is not UNSET:
            field_dict["bins"] = bins
        if config is not UNSET:
            field_dict["config"] = config
        if env is not UNSET:
            field_dict["env"] = env

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        any_bins = cast(list[str], d.pop("anyBins", UNSET))


        bins = cast(list[str], d.pop("bins", UNSET))


        config = cast(list[str], d.pop("config", UNSET))


        env = cast(list[str], d.pop("env", UNSET))


        requires = cls(
            any_bins=any_bins,
            bins=bins,
            config=config,
            env=env,
        )


        requires.additional_properties = d
        return requires

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
