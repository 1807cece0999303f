from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.agent import Agent





T = TypeVar("T", bound="Imported")



@_attrs_define
class Imported:
    """ What an import made.

        Attributes:
            agent (Agent): A hosted agent as stored: its settings and when they were set.
            created (bool): `false` when these bytes were imported before and that agent is returned.
            format_ (str): `miniclaw.agent` or `letta`.
            memories (int):
            messages (int):
            notes (list[str]): What did not come along, and why (a skill not on this market, a Letta tool, ...).
            skills (list[str]): Skills installed again from this platform's market.
            soul_versions (int):
            tasks (int):
     """

    agent: Agent
    created: bool
    format_: str
    memories: int
    messages: int
    notes: list[str]
    skills: list[str]
    soul_versions: int
    tasks: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent import Agent # noqa: PLC0415
        agent = self.agent.to_dict()

        created = self.created

        format_ = self.format_

        memories = self.memories

        messages = self.messages

        notes = self.notes



        skills = self.skills



        soul_versions = self.soul_versions

        tasks = self.tasks


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent": agent,
            "created": created,
            "format": format_,
            "memories": memories,
            "messages": messages,
            "notes": notes,
            "skills": skills,
            "soul_versions": soul_versions,
            "tasks": tasks,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent import Agent # noqa: PLC0415
        d = dict(src_dict)
        agent = Agent.from_dict(d.pop("agent"))




        created = d.pop("created")

        format_ = d.pop("format")

        memories = d.pop("memories")

        messages = d.pop("messages")

        notes = cast(list[str], d.pop("notes"))


        skills = cast(list[str], d.pop("skills"))


        soul_versions = d.pop("soul_versions")

        tasks = d.pop("tasks")

        imported = cls(
            agent=agent,
            created=created,
            format_=format_,
            memories=memories,
            messages=messages,
            notes=notes,
            skills=skills,
            soul_versions=soul_versions,
            tasks=tasks,
        )


        imported.additional_properties = d
        return imported

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
