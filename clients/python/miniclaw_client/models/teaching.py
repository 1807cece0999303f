from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Teaching")



@_attrs_define
class Teaching:
    """ One teaching, as the collection holds it.

        Attributes:
            author (str): Who said or wrote it.
            source (str): The work it is from, with the translator and year for a translation.
            text (str):
            themes (list[str]): One to three of `THEMES`, the most fitting first.
            year (int): When the work was written or first published (negative: BCE).
     """

    author: str
    source: str
    text: str
    themes: list[str]
    year: int





    def to_dict(self) -> dict[str, Any]:
        author = self.author

        source = self.source

        text = self.text

        themes = self.themes



        year = self.year


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "author": author,
            "source": source,
            "text": text,
            "themes": themes,
            "year": year,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        author = d.pop("author")

        source = d.pop("source")

        text = d.pop("text")

        themes = cast(list[str], d.pop("themes"))


        year = d.pop("year")

        teaching = cls(
            author=author,
            source=source,
            text=text,
            themes=themes,
            year=year,
        )

        return teaching

