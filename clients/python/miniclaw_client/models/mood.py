from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Mood")



@_attrs_define
class Mood:
    """ The smoothed mood of one speaker.

        Attributes:
            distress (bool):
            fast_arousal (float):
            fast_valence (float):
            label (str): The label of the fast averages.
            messages (int):
            observed_at (datetime.datetime):
            slow_arousal (float):
            slow_valence (float):
     """

    distress: bool
    fast_arousal: float
    fast_valence: float
    label: str
    messages: int
    observed_at: datetime.datetime
    slow_arousal: float
    slow_valence: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        distress = self.distress

        fast_arousal = self.fast_arousal

        fast_valence = self.fast_valence

        label = self.label

        messages = self.messages

        observed_at = self.observed_at.isoformat()

        slow_arousal = self.slow_arousal

        slow_valence = self.slow_valence


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "distress": distress,
            "fast_arousal": fast_arousal,
            "fast_valence": fast_valence,
            "label": label,
            "messages": messages,
            "observed_at": observed_at,
            "slow_arousal": slow_arousal,
            "slow_valence": slow_valence,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        distress = d.pop("distress")

        fast_arousal = d.pop("fast_arousal")

        fast_valence = d.pop("fast_valence")

        label = d.pop("label")

        messages = d.pop("messages")

        observed_at = datetime.datetime.fromisoformat(d.pop("observed_at"))




        slow_arousal = d.pop("slow_arousal")

        slow_valence = d.pop("slow_valence")

        mood = cls(
            distress=distress,
            fast_arousal=fast_arousal,
            fast_valence=fast_valence,
            label=label,
            messages=messages,
            observed_at=observed_at,
            slow_arousal=slow_arousal,
            slow_valence=slow_valence,
        )


        mood.additional_properties = d
        return mood

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
