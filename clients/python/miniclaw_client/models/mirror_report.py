from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.asked import Asked
  from ..models.hot import Hot
  from ..models.resonance import Resonance
  from ..models.split import Split





T = TypeVar("T", bound="MirrorReport")



@_attrs_define
class MirrorReport:
    """ One night's mirror of an agent.

        Attributes:
            events (int):
            friction (list[Asked]):
            gaps (list[Asked]):
            hot (list[Hot]):
            pinned_chars (int): Characters of pinned live memories, and whether the owner was asked to review them.
            promoted (list[UUID]): Memories pinned tonight.
            resonance (list[Resonance]):
            review_requested (bool):
            swamps_split (list[Split]):
     """

    events: int
    friction: list[Asked]
    gaps: list[Asked]
    hot: list[Hot]
    pinned_chars: int
    promoted: list[UUID]
    resonance: list[Resonance]
    review_requested: bool
    swamps_split: list[Split]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.asked import Asked # noqa: PLC0415
        from ..models.hot import Hot # noqa: PLC0415
        from ..models.resonance import Resonance # noqa: PLC0415
        from ..models.split import Split # noqa: PLC0415
        events = self.events

        friction = []
        for friction_item_data in self.friction:
            friction_item = friction_item_data.to_dict()
            friction.append(friction_item)



        gaps = []
        for gaps_item_data in self.gaps:
            gaps_item = gaps_item_data.to_dict()
            gaps.append(gaps_item)



        hot = []
        for hot_item_data in self.hot:
            hot_item = hot_item_data.to_dict()
            hot.append(hot_item)



        pinned_chars = self.pinned_chars

        promoted = []
        for promoted_item_data in self.promoted:
            promoted_item = str(promoted_item_data)
            promoted.append(promoted_item)



        resonance = []
        for resonance_item_data in self.resonance:
            resonance_item = resonance_item_data.to_dict()
            resonance.append(resonance_item)



        review_requested = self.review_requested

        swamps_split = []
        for swamps_split_item_data in self.swamps_split:
            swamps_split_item = swamps_split_item_data.to_dict()
            swamps_split.append(swamps_split_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "events": events,
            "friction": friction,
            "gaps": gaps,
            "hot": hot,
            "pinned_chars": pinned_chars,
            "promoted": promoted,
            "resonance": resonance,
            "review_requested": review_requested,
            "swamps_split": swamps_split,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.asked import Asked # noqa: PLC0415
        from ..models.hot import Hot # noqa: PLC0415
        from ..models.resonance import Resonance # noqa: PLC0415
        from ..models.split import Split # noqa: PLC0415
        d = dict(src_dict)
        events = d.pop("events")

        friction = []
        _friction = d.pop("friction")
        for friction_item_data in (_friction):
            friction_item = Asked.from_dict(friction_item_data)



            friction.append(friction_item)


        gaps = []
        _gaps = d.pop("gaps")
        for gaps_item_data in (_gaps):
            gaps_item = Asked.from_dict(gaps_item_data)



            gaps.append(gaps_item)


        hot = []
        _hot = d.pop("hot")
        for hot_item_data in (_hot):
            hot_item = Hot.from_dict(hot_item_data)



            hot.append(hot_item)


        pinned_chars = d.pop("pinned_chars")

        promoted = []
        _promoted = d.pop("promoted")
        for promoted_item_data in (_promoted):
            promoted_item = UUID(promoted_item_data)



            promoted.append(promoted_item)


        resonance = []
        _resonance = d.pop("resonance")
        for resonance_item_data in (_resonance):
            resonance_item = Resonance.from_dict(resonance_item_data)



            resonance.append(resonance_item)


        review_requested = d.pop("review_requested")

        swamps_split = []
        _swamps_split = d.pop("swamps_split")
        for swamps_split_item_data in (_swamps_split):
            swamps_split_item = Split.from_dict(swamps_split_item_data)



            swamps_split.append(swamps_split_item)


        mirror_report = cls(
            events=events,
            friction=friction,
            gaps=gaps,
            hot=hot,
            pinned_chars=pinned_chars,
            promoted=promoted,
            resonance=resonance,
            review_requested=review_requested,
            swamps_split=swamps_split,
        )


        mirror_report.additional_properties = d
        return mirror_report

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
