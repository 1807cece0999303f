from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.speaker_mood import SpeakerMood





T = TypeVar("T", bound="Moods")



@_attrs_define
class Moods:
    """ The moods the caller may see.

        Attributes:
            speakers (list[SpeakerMood]):
            truncated (bool): Whether the agent has more speakers than were listed.
     """

    speakers: list[SpeakerMood]
    truncated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.speaker_mood import SpeakerMood # noqa: PLC0415
        speakers = []
        for speakers_item_data in self.speakers:
            speakers_item = speakers_item_data.to_dict()
            speakers.append(speakers_item)



        truncated = self.truncated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "speakers": speakers,
            "truncated": truncated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.speaker_mood import SpeakerMood # noqa: PLC0415
        d = dict(src_dict)
        speakers = []
        _speakers = d.pop("speakers")
        for speakers_item_data in (_speakers):
            speakers_item = SpeakerMood.from_dict(speakers_item_data)



            speakers.append(speakers_item)


        truncated = d.pop("truncated")

        moods = cls(
            speakers=speakers,
            truncated=truncated,
        )


        moods.additional_properties = d
        return moods

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
