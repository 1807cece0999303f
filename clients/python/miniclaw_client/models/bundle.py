from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.portable_agent import PortableAgent
  from ..models.portable_conversation import PortableConversation
  from ..models.portable_dossier import PortableDossier
  from ..models.portable_memory import PortableMemory
  from ..models.portable_relation import PortableRelation
  from ..models.portable_skill import PortableSkill
  from ..models.portable_soul_version import PortableSoulVersion
  from ..models.portable_task import PortableTask





T = TypeVar("T", bound="Bundle")



@_attrs_define
class Bundle:
    """ One agent, whole: the `miniclaw.agent` format, version 1.

        Attributes:
            agent (PortableAgent): The agent's settings (the owner's connection keys and identity stay behind).
            exported_at (datetime.datetime):
            format_ (str): Always `miniclaw.agent`.
            memories (list[PortableMemory]): Every memory, live or not, with its history.
            soul (list[PortableSoulVersion]): Every version of the soul, oldest first; the last is the current one.
            version (int): The format's version: 1.
            conversations (list[PortableConversation] | None | Unset): Present only when the export was asked for them.
            dossier (None | PortableDossier | Unset):
            relations (list[PortableRelation] | Unset):
            skills (list[PortableSkill] | Unset): Skills installed from this platform's market, by slug.
            tasks (list[PortableTask] | Unset):
     """

    agent: PortableAgent
    exported_at: datetime.datetime
    format_: str
    memories: list[PortableMemory]
    soul: list[PortableSoulVersion]
    version: int
    conversations: list[PortableConversation] | None | Unset = UNSET
    dossier: None | PortableDossier | Unset = UNSET
    relations: list[PortableRelation] | Unset = UNSET
    skills: list[PortableSkill] | Unset = UNSET
    tasks: list[PortableTask] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.portable_agent import PortableAgent # noqa: PLC0415
        from ..models.portable_conversation import PortableConversation # noqa: PLC0415
        from ..models.portable_dossier import PortableDossier # noqa: PLC0415
        from ..models.portable_memory import PortableMemory # noqa: PLC0415
        from ..models.portable_relation import PortableRelation # noqa: PLC0415
        from ..models.portable_skill import PortableSkill # noqa: PLC0415
        from ..models.portable_soul_version import PortableSoulVersion # noqa: PLC0415
        from ..models.portable_task import PortableTask # noqa: PLC0415
        agent = self.agent.to_dict()

        exported_at = self.exported_at.isoformat()

        format_ = self.format_

        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)



        soul = []
        for soul_item_data in self.soul:
            soul_item = soul_item_data.to_dict()
            soul.append(soul_item)



        version = self.version

        conversations: list[dict[str, Any]] | None | Unset
        if isinstance(self.conversations, Unset):
            conversations = UNSET
        elif isinstance(self.conversations, list):
            conversations = []
            for conversations_type_0_item_data in self.conversations:
                conversations_type_0_item = conversations_type_0_item_data.to_dict()
                conversations.append(conversations_type_0_item)


        else:
            conversations = self.conversations

        dossier: dict[str, Any] | None | Unset
        if isinstance(self.dossier, Unset):
            dossier = UNSET
        elif isinstance(self.dossier, PortableDossier):
            dossier = self.dossier.to_dict()
        else:
            dossier = self.dossier

        relations: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.relations, Unset):
            relations = []
            for relations_item_data in self.relations:
                relations_item = relations_item_data.to_dict()
                relations.append(relations_item)



        skills: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.skills, Unset):
            skills = []
            for skills_item_data in self.skills:
                skills_item = skills_item_data.to_dict()
                skills.append(skills_item)



        tasks: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tasks, Unset):
            tasks = []
            for tasks_item_data in self.tasks:
                tasks_item = tasks_item_data.to_dict()
                tasks.append(tasks_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent": agent,
            "exported_at": exported_at,
            "format": format_,
            "memories": memories,
            "soul": soul,
            "version": version,
        })
        if conversations is not UNSET:
            field_dict["conversations"] = conversations
        if dossier is not UNSET:
            field_dict["dossier"] = dossier
        if relations is not UNSET:
            field_dict["relations"] = relations
        if skills is not UNSET:
            field_dict["skills"] = skills
        if tasks is not UNSET:
            field_dict["tasks"] = tasks

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portable_agent import PortableAgent # noqa: PLC0415
        from ..models.portable_conversation import PortableConversation # noqa: PLC0415
        from ..models.portable_dossier import PortableDossier # noqa: PLC0415
        from ..models.portable_memory import PortableMemory # noqa: PLC0415
        from ..models.portable_relation import PortableRelation # noqa: PLC0415
        from ..models.portable_skill import PortableSkill # noqa: PLC0415
        from ..models.portable_soul_version import PortableSoulVersion # noqa: PLC0415
        from ..models.portable_task import PortableTask # noqa: PLC0415
        d = dict(src_dict)
        agent = PortableAgent.from_dict(d.pop("agent"))




        exported_at = datetime.datetime.fromisoformat(d.pop("exported_at"))




        format_ = d.pop("format")

        memories = []
        _memories = d.pop("memories")
        for memories_item_data in (_memories):
            memories_item = PortableMemory.from_dict(memories_item_data)



            memories.append(memories_item)


        soul = []
        _soul = d.pop("soul")
        for soul_item_data in (_soul):
            soul_item = PortableSoulVersion.from_dict(soul_item_data)



            soul.append(soul_item)


        version = d.pop("version")

        def _parse_conversations(data: object) -> list[PortableConversation] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                conversations_type_0 = []
                _conversations_type_0 = data
                for conversations_type_0_item_data in (_conversations_type_0):
                    conversations_type_0_item = PortableConversation.from_dict(conversations_type_0_item_data)



                    conversations_type_0.append(conversations_type_0_item)

                return conversations_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PortableConversation] | None | Unset, data)

        conversations = _parse_conversations(d.pop("conversations", UNSET))


        def _parse_dossier(data: object) -> None | PortableDossier | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                dossier_type_1 = PortableDossier.from_dict(data)



                return dossier_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PortableDossier | Unset, data)

        dossier = _parse_dossier(d.pop("dossier", UNSET))


        _relations = d.pop("relations", UNSET)
        relations: list[PortableRelation] | Unset = UNSET
        if _relations is not UNSET:
            relations = []
            for relations_item_data in _relations:
                relations_item = PortableRelation.from_dict(relations_item_data)



                relations.append(relations_item)


        _skills = d.pop("skills", UNSET)
        skills: list[PortableSkill] | Unset = UNSET
        if _skills is not UNSET:
            skills = []
            for skills_item_data in _skills:
                skills_item = PortableSkill.from_dict(skills_item_data)



                skills.append(skills_item)


        _tasks = d.pop("tasks", UNSET)
        tasks: list[PortableTask] | Unset = UNSET
        if _tasks is not UNSET:
            tasks = []
            for tasks_item_data in _tasks:
                tasks_item = PortableTask.from_dict(tasks_item_data)



                tasks.append(tasks_item)


        bundle = cls(
            agent=agent,
            exported_at=exported_at,
            format_=format_,
            memories=memories,
            soul=soul,
            version=version,
            conversations=conversations,
            dossier=dossier,
            relations=relations,
            skills=skills,
            tasks=tasks,
        )

        return bundle

