from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.coupling import Coupling
  from ..models.resume import Resume





T = TypeVar("T", bound="Coordinates")



@_attrs_define
class Coordinates:
    """ Where the agent and its user are (003 §5.2).

        Attributes:
            attention (list[str]): What holds the user's attention: their most prominent current goals.
            coupling (Coupling): The state of the relationship.
            next_steps (list[str]): The open tasks after the current one.
            current_task (None | str | Unset): The task in progress: the newest task being worked on or approved.
            mood (None | str | Unset): How the user's last messages read (X6 label).
            resume (None | Resume | Unset):
     """

    attention: list[str]
    coupling: Coupling
    next_steps: list[str]
    current_task: None | str | Unset = UNSET
    mood: None | str | Unset = UNSET
    resume: None | Resume | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.coupling import Coupling # noqa: PLC0415
        from ..models.resume import Resume # noqa: PLC0415
        attention = self.attention



        coupling = self.coupling.to_dict()

        next_steps = self.next_steps



        current_task: None | str | Unset
        if isinstance(self.current_task, Unset):
            current_task = UNSET
        else:
            current_task = self.current_task

        mood: None | str | Unset
        if isinstance(self.mood, Unset):
            mood = UNSET
        else:
            mood = self.mood

        resume: dict[str, Any] | None | Unset
        if isinstance(self.resume, Unset):
            resume = UNSET
        elif isinstance(self.resume, Resume):
            resume = self.resume.to_dict()
        else:
            resume = self.resume


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attention": attention,
            "coupling": coupling,
            "next_steps": next_steps,
        })
        if current_task is not UNSET:
            field_dict["current_task"] = current_task
        if mood is not UNSET:
            field_dict["mood"] = mood
        if resume is not UNSET:
            field_dict["resume"] = resume

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.coupling import Coupling # noqa: PLC0415
        from ..models.resume import Resume # noqa: PLC0415
        d = dict(src_dict)
        attention = cast(list[str], d.pop("attention"))


        coupling = Coupling.from_dict(d.pop("coupling"))




        next_steps = cast(list[str], d.pop("next_steps"))


        def _parse_current_task(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        current_task = _parse_current_task(d.pop("current_task", UNSET))


        def _parse_mood(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mood = _parse_mood(d.pop("mood", UNSET))


        def _parse_resume(data: object) -> None | Resume | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resume_type_1 = Resume.from_dict(data)



                return resume_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Resume | Unset, data)

        resume = _parse_resume(d.pop("resume", UNSET))


        coordinates = cls(
            attention=attention,
            coupling=coupling,
            next_steps=next_steps,
            current_task=current_task,
            mood=mood,
            resume=resume,
        )


        coordinates.additional_properties = d
        return coordinates

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
