from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.signal_status import SignalStatus
from typing import cast

if TYPE_CHECKING:
  from ..models.signal_value import SignalValue





T = TypeVar("T", bound="Signal")



@_attrs_define
class Signal:
    """ One sub-signal's contribution to its dimension.

        Attributes:
            key (str):
            label (str):
            max_ (int):
            points (int): Points earned, 0..=`max`.
            rule (str): How the points follow from the value.
            source (str): Where the value comes from.
            status (SignalStatus): Whether a sub-signal was measured, or left out because its source is not available here.
            value (SignalValue): What was measured (a count, days, a provider, …); `null` when nothing was.
     """

    key: str
    label: str
    max_: int
    points: int
    rule: str
    source: str
    status: SignalStatus
    value: SignalValue
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.signal_value import SignalValue # noqa: PLC0415
        key = self.key

        label = self.label

        max_ = self.max_

        points = self.points

        rule = self.rule

        source = self.source

        status = self.status.value

        value = self.value.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "key": key,
            "label": label,
            "max": max_,
            "points": points,
            "rule": rule,
            "source": source,
            "status": status,
            "value": value,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signal_value import SignalValue # noqa: PLC0415
        d = dict(src_dict)
        key = d.pop("key")

        label = d.pop("label")

        max_ = d.pop("max")

        points = d.pop("points")

        rule = d.pop("rule")

        source = d.pop("source")

        status = SignalStatus(d.pop("status"))




        value = SignalValue.from_dict(d.pop("value"))




        signal = cls(
            key=key,
            label=label,
            max_=max_,
            points=points,
            rule=rule,
            source=source,
            status=status,
            value=value,
        )


        signal.additional_properties = d
        return signal

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
