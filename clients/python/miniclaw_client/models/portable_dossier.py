from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="PortableDossier")



@_attrs_define
class PortableDossier:
    """ The compiled dossier.

        Attributes:
            compiled_at (datetime.datetime):
            content (str):
            engine (str):
            model (str):
            input_chars (int | Unset):
            memories (int | Unset):
            words (int | Unset):
     """

    compiled_at: datetime.datetime
    content: str
    engine: str
    model: str
    input_chars: int | Unset = UNSET
    memories: int | Unset = UNSET
    words: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        compiled_at = self.compiled_at.isoformat()

        content = self.content

        engine = self.engine

        model = self.model

        input_chars = self.input_chars

        memories = self.memories

        words = self.words


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "compiled_at": compiled_at,
            "content": content,
            "engine": engine,
            "model": model,
        })
        if input_chars is not UNSET:
            field_dict["input_chars"] = input_chars
        if memories is not UNSET:
            field_dict["memories"] = memories
        if words is not UNSET:
            field_dict["words"] = words

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        compiled_at = datetime.datetime.fromisoformat(d.pop("compiled_at"))




        content = d.pop("content")

        engine = d.pop("engine")

        model = d.pop("model")

        input_chars = d.pop("input_chars", UNSET)

        memories = d.pop("memories", UNSET)

        words = d.pop("words", UNSET)

        portable_dossier = cls(
            compiled_at=compiled_at,
            content=content,
            engine=engine,
            model=model,
            input_chars=input_chars,
            memories=memories,
            words=words,
        )

        return portable_dossier

