from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.day_part import DayPart
from ..models.phase import Phase
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.mood import Mood





T = TypeVar("T", bound="Moment")



@_attrs_define
class Moment:
    """ The moment a choice is made for.

        Attributes:
            day_part (DayPart): The part of the day, in the agent's timezone.
            local (str): The agent's local time. Example: 2026-11-25T08:30:00.
            phase (Phase): How far the agent has grown: `mirror` before its first reflection, `opinion` once it has
                reflected, `agent` once it acts on its own (a task done, an email sent, a post).
            mood (Mood | None | Unset):
     """

    day_part: DayPart
    local: str
    phase: Phase
    mood: Mood | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.mood import Mood # noqa: PLC0415
        day_part = self.day_part.value

        local = self.local

        phase = self.phase.value

        mood: dict[str, Any] | None | Unset
        if isinstance(self.mood, Unset):
            mood = UNSET
        elif isinstance(self.mood, Mood):
            mood = self.mood.to_dict()
        else:
            mood = self.mood


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "day_part": day_part,
            "local": local,
            "phase": phase,
        })
        if mood is not UNSET:
            field_dict["mood"] = mood

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mood import Mood # noqa: PLC0415
        d = dict(src_dict)
        day_part = DayPart(d.pop("day_part"))




        local = d.pop("local")

        phase = Phase(d.pop("phase"))




        def _parse_mood(data: object) -> Mood | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                mood_type_1 = Mood.from_dict(data)



                return mood_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Mood | None | Unset, data)

        mood = _parse_mood(d.pop("mood", UNSET))


        moment = cls(
            day_part=day_part,
            local=local,
            phase=phase,
            mood=mood,
        )


        moment.additional_properties = d
        return moment

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
