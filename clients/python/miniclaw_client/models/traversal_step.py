from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.tier import Tier
from uuid import UUID






T = TypeVar("T", bound="TraversalStep")



@_attrs_define
class TraversalStep:
    """ One edge followed.

        Attributes:
            from_ (UUID):
            hop (int): 1 for an edge out of a seed.
            score (float):
            tier (Tier): The heartbeat tiers (SPEC X10, 000 §5): how often a cycle breathes, and whether it waits
                for activity. Pulse work (health, retrieval auditing, affect) is light and runs for every
                agent; Breath (every 30 min: decay, forgetting, fusion) and Sleep (nightly: dreams, deep
                reflection, gap scans) are idle-gated: an agent with no new activity since its last run gets
                no job.
            to (UUID):
            weight (float): The weight the edge had when it was followed (before damping).
     """

    from_: UUID
    hop: int
    score: float
    tier: Tier
    to: UUID
    weight: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from_ = str(self.from_)

        hop = self.hop

        score = self.score

        tier = self.tier.value

        to = str(self.to)

        weight = self.weight


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "from": from_,
            "hop": hop,
            "score": score,
            "tier": tier,
            "to": to,
            "weight": weight,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_ = UUID(d.pop("from"))




        hop = d.pop("hop")

        score = d.pop("score")

        tier = Tier(d.pop("tier"))




        to = UUID(d.pop("to"))




        weight = d.pop("weight")

        traversal_step = cls(
            from_=from_,
            hop=hop,
            score=score,
            tier=tier,
            to=to,
            weight=weight,
        )


        traversal_step.additional_properties = d
        return traversal_step

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
