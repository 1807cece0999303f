from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Pick")



@_attrs_define
class Pick:
    """ A chosen teaching and why it was chosen.

        Attributes:
            author (str): Who said or wrote it.
            source (str): The work it is from, with the translator and year for a translation.
            text (str):
            themes (list[str]): One to three of `THEMES`, the most fitting first.
            year (int): When the work was written or first published (negative: BCE).
            matched (list[str]): Which parts of the moment it matched: `theme`, `day_part`, `phase`, `mood`.
            score (float):
     """

    author: str
    source: str
    text: str
    themes: list[str]
    year: int
    matched: list[str]
    score: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        author = self.author

        source = self.source

        text = self.text

        themes = self.themes



        year = self.year

        matched = self.matched



        score = self.score


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "author": author,
            "source": source,
            "text": text,
            "themes": themes,
            "year": year,
            "matched": matched,
            "score": score,
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

        matched = cast(list[str], d.pop("matched"))


        score = d.pop("score")

        pick = cls(
            author=author,
            source=source,
            text=text,
            themes=themes,
            year=year,
            matched=matched,
            score=score,
        )


        pick.additional_properties = d
        return pick

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
