from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Health")



@_attrs_define
class Health:
    """ The store-health report (R6c).

        Attributes:
            agent_id (UUID):
            contradictions (int): Memories invalidated by a contradicting newer fact.
            dormant (int): Live memories whose prominence fell to 0.5 or below (X2): still searched.
            exact_duplicate_rate (float): Share of live memories whose normalised text another live memory also has.
            forgotten (int): Memories forgetting archived, restorable until they are pruned (X2).
            fused (int): Live memories folded from others by fusion or NREM consolidation (X2, X4).
            generated_at (datetime.datetime):
            live_memories (int):
            near_duplicate_rate (float): Share of the (up to) 200 newest live memories with another live memory of the same
                model within cosine 0.92.
            near_duplicate_sample (int):
            recall_loop_suppressions (int): Candidate facts dropped because they only restated an injected memory (30 days).
            relations (int): Relations between the agent's memories (`updates`, `extends`, `derives`).
            stale_share (float): Share of live memories older than 60 days that no search returned in 60 days.
            tombstone_hits (int): Candidate facts dropped because they matched a tombstone (30 days).
            tombstones (int):
            total_memories (int):
            unembedded (int): Memories waiting for a vector.
     """

    agent_id: UUID
    contradictions: int
    dormant: int
    exact_duplicate_rate: float
    forgotten: int
    fused: int
    generated_at: datetime.datetime
    live_memories: int
    near_duplicate_rate: float
    near_duplicate_sample: int
    recall_loop_suppressions: int
    relations: int
    stale_share: float
    tombstone_hits: int
    tombstones: int
    total_memories: int
    unembedded: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        contradictions = self.contradictions

        dormant = self.dormant

        exact_duplicate_rate = self.exact_duplicate_rate

        forgotten = self.forgotten

        fused = self.fused

        generated_at = self.generated_at.isoformat()

        live_memories = self.live_memories

        near_duplicate_rate = self.near_duplicate_rate

        near_duplicate_sample = self.near_duplicate_sample

        recall_loop_suppressions = self.recall_loop_suppressions

        relations = self.relations

        stale_share = self.stale_share

        tombstone_hits = self.tombstone_hits

        tombstones = self.tombstones

        total_memories = self.total_memories

        unembedded = self.unembedded


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "contradictions": contradictions,
            "dormant": dormant,
            "exact_duplicate_rate": exact_duplicate_rate,
            "forgotten": forgotten,
            "fused": fused,
            "generated_at": generated_at,
            "live_memories": live_memories,
            "near_duplicate_rate": near_duplicate_rate,
            "near_duplicate_sample": near_duplicate_sample,
            "recall_loop_suppressions": recall_loop_suppressions,
            "relations": relations,
            "stale_share": stale_share,
            "tombstone_hits": tombstone_hits,
            "tombstones": tombstones,
            "total_memories": total_memories,
            "unembedded": unembedded,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        contradictions = d.pop("contradictions")

        dormant = d.pop("dormant")

        exact_duplicate_rate = d.pop("exact_duplicate_rate")

        forgotten = d.pop("forgotten")

        fused = d.pop("fused")

        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))




        live_memories = d.pop("live_memories")

        near_duplicate_rate = d.pop("near_duplicate_rate")

        near_duplicate_sample = d.pop("near_duplicate_sample")

        recall_loop_suppressions = d.pop("recall_loop_suppressions")

        relations = d.pop("relations")

        stale_share = d.pop("stale_share")

        tombstone_hits = d.pop("tombstone_hits")

        tombstones = d.pop("tombstones")

        total_memories = d.pop("total_memories")

        unembedded = d.pop("unembedded")

        health = cls(
            agent_id=agent_id,
            contradictions=contradictions,
            dormant=dormant,
            exact_duplicate_rate=exact_duplicate_rate,
            forgotten=forgotten,
            fused=fused,
            generated_at=generated_at,
            live_memories=live_memories,
            near_duplicate_rate=near_duplicate_rate,
            near_duplicate_sample=near_duplicate_sample,
            recall_loop_suppressions=recall_loop_suppressions,
            relations=relations,
            stale_share=stale_share,
            tombstone_hits=tombstone_hits,
            tombstones=tombstones,
            total_memories=total_memories,
            unembedded=unembedded,
        )


        health.additional_properties = d
        return health

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
