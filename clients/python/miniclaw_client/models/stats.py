from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.stats_per_figure import StatsPerFigure
  from ..models.stats_themes import StatsThemes





T = TypeVar("T", bound="Stats")



@_attrs_define
class Stats:
    """ What the collection holds.

        Attributes:
            earliest_year (int):
            figures (int):
            latest_year (int):
            per_figure (StatsPerFigure): Teachings per figure.
            teachings (int):
            themes (StatsThemes): Teachings per theme, every theme listed.
            works (int): Distinct source works.
     """

    earliest_year: int
    figures: int
    latest_year: int
    per_figure: StatsPerFigure
    teachings: int
    themes: StatsThemes
    works: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.stats_per_figure import StatsPerFigure # noqa: PLC0415
        from ..models.stats_themes import StatsThemes # noqa: PLC0415
        earliest_year = self.earliest_year

        figures = self.figures

        latest_year = self.latest_year

        per_figure = self.per_figure.to_dict()

        teachings = self.teachings

        themes = self.themes.to_dict()

        works = self.works


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "earliest_year": earliest_year,
            "figures": figures,
            "latest_year": latest_year,
            "per_figure": per_figure,
            "teachings": teachings,
            "themes": themes,
            "works": works,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stats_per_figure import StatsPerFigure # noqa: PLC0415
        from ..models.stats_themes import StatsThemes # noqa: PLC0415
        d = dict(src_dict)
        earliest_year = d.pop("earliest_year")

        figures = d.pop("figures")

        latest_year = d.pop("latest_year")

        per_figure = StatsPerFigure.from_dict(d.pop("per_figure"))




        teachings = d.pop("teachings")

        themes = StatsThemes.from_dict(d.pop("themes"))




        works = d.pop("works")

        stats = cls(
            earliest_year=earliest_year,
            figures=figures,
            latest_year=latest_year,
            per_figure=per_figure,
            teachings=teachings,
            themes=themes,
            works=works,
        )


        stats.additional_properties = d
        return stats

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
