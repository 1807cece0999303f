from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.mood import Mood





T = TypeVar("T", bound="SpeakerMood")



@_attrs_define
class SpeakerMood:
    """ One speaker's mood with an agent, as the API shows it.

        Attributes:
            mood (Mood): The smoothed mood of one speaker.
            speaker (str): `owner`, `api` (a key without an end user) or `user:<end user>`.
     """

    mood: Mood
    speaker: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.mood import Mood # noqa: PLC0415
        mood = self.mood.to_dict()

        speaker = self.speaker


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mood": mood,
            "speaker": speaker,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mood import Mood # noqa: PLC0415
        d = dict(src_dict)
        mood = Mood.from_dict(d.pop("mood"))




        speaker = d.pop("speaker")

        speaker_mood = cls(
            mood=mood,
            speaker=speaker,
        )


        speaker_mood.additional_properties = d
        return speaker_mood

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
