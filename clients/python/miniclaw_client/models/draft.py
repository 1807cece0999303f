from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Draft")



@_attrs_define
class Draft:
    """ A drafted agent, waiting for the owner.

        Attributes:
            brief (str):
            created_at (datetime.datetime):
            engine (str): `model`, or `offline` (the offline engine's template).
            id (UUID):
            name (str):
            persona (str):
            soul (str): The first soul document.
            status (str): pending, confirmed, discarded
            suggested_skills (list[str]): Skills the drafter suggests (names; the skill market installs them once it
                exists).
            agent_id (None | Unset | UUID): The agent a confirmed draft became.
     """

    brief: str
    created_at: datetime.datetime
    engine: str
    id: UUID
    name: str
    persona: str
    soul: str
    status: str
    suggested_skills: list[str]
    agent_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        brief = self.brief

        created_at = self.created_at.isoformat()

        engine = self.engine

        id = str(self.id)

        name = self.name

        persona = self.persona

        soul = self.soul

        status = self.status

        suggested_skills = self.suggested_skills



        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "brief": brief,
            "created_at": created_at,
            "engine": engine,
            "id": id,
            "name": name,
            "persona": persona,
            "soul": soul,
            "status": status,
            "suggested_skills": suggested_skills,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        brief = d.pop("brief")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        engine = d.pop("engine")

        id = UUID(d.pop("id"))




        name = d.pop("name")

        persona = d.pop("persona")

        soul = d.pop("soul")

        status = d.pop("status")

        suggested_skills = cast(list[str], d.pop("suggested_skills"))


        def _parse_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                agent_id_type_0 = UUID(data)



                return agent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))


        draft = cls(
            brief=brief,
            created_at=created_at,
            engine=engine,
            id=id,
            name=name,
            persona=persona,
            soul=soul,
            status=status,
            suggested_skills=suggested_skills,
            agent_id=agent_id,
        )


        draft.additional_properties = d
        return draft

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
