from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cycle_scope import CycleScope
from ..models.tier import Tier
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CycleInfo")



@_attrs_define
class CycleInfo:
    """ A public description of a cycle, for `GET /v1/admin/cycles`.

        Attributes:
            description (str):
            idle_gated (bool): Whether an agent without new activity is skipped.
            name (str):
            scope (CycleScope):
            interval_secs (int | None | Unset):
            tier (None | Tier | Unset):
     """

    description: str
    idle_gated: bool
    name: str
    scope: CycleScope
    interval_secs: int | None | Unset = UNSET
    tier: None | Tier | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        description = self.description

        idle_gated = self.idle_gated

        name = self.name

        scope = self.scope.value

        interval_secs: int | None | Unset
        if isinstance(self.interval_secs, Unset):
            interval_secs = UNSET
        else:
            interval_secs = self.interval_secs

        tier: None | str | Unset
        if isinstance(self.tier, Unset):
            tier = UNSET
        elif isinstance(self.tier, Tier):
            tier = self.tier.value
        else:
            tier = self.tier


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "description": description,
            "idle_gated": idle_gated,
            "name": name,
            "scope": scope,
        })
        if interval_secs is not UNSET:
            field_dict["interval_secs"] = interval_secs
        if tier is not UNSET:
            field_dict["tier"] = tier

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        idle_gated = d.pop("idle_gated")

        name = d.pop("name")

        scope = CycleScope(d.pop("scope"))




        def _parse_interval_secs(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        interval_secs = _parse_interval_secs(d.pop("interval_secs", UNSET))


        def _parse_tier(data: object) -> None | Tier | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tier_type_1 = Tier(data)



                return tier_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Tier | Unset, data)

        tier = _parse_tier(d.pop("tier", UNSET))


        cycle_info = cls(
            description=description,
            idle_gated=idle_gated,
            name=name,
            scope=scope,
            interval_secs=interval_secs,
            tier=tier,
        )


        cycle_info.additional_properties = d
        return cycle_info

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
