from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Dossier")



@_attrs_define
class Dossier:
    """ 
        Attributes:
            agent_id (UUID):
            compiled_at (datetime.datetime): The snapshot time: memories changed after it make the dossier stale.
            content (str):
            engine (str):
            input_chars (int):
            memories (int):
            model (str):
            words (int):
     """

    agent_id: UUID
    compiled_at: datetime.datetime
    content: str
    engine: str
    input_chars: int
    memories: int
    model: str
    words: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        compiled_at = self.compiled_at.isoformat()

        content = self.content

        engine = self.engine

        input_chars = self.input_chars

        memories = self.memories

        model = self.model

        words = self.words


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "compiled_at": compiled_at,
            "content": content,
            "engine": engine,
            "input_chars": input_chars,
            "memories": memories,
            "model": model,
            "words": words,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        compiled_at = datetime.datetime.fromisoformat(d.pop("compiled_at"))




        content = d.pop("content")

        engine = d.pop("engine")

        input_chars = d.pop("input_chars")

        memories = d.pop("memories")

        model = d.pop("model")

        words = d.pop("words")

        dossier = cls(
            agent_id=agent_id,
            compiled_at=compiled_at,
            content=content,
            engine=engine,
            input_chars=input_chars,
            memories=memories,
            model=model,
            words=words,
        )


        dossier.additional_properties = d
        return dossier

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
