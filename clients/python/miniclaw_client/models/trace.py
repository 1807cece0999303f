from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.node import Node
  from ..models.traversal_step import TraversalStep





T = TypeVar("T", bound="Trace")



@_attrs_define
class Trace:
    """ The path of one traversal, stored with the reply it served (the feedback route learns from it).

        Attributes:
            chars (int): Characters of the reached nodes.
            reached (list[Node]): The nodes traversal added beyond its seeds, in the order reached.
            seeds (list[Node]):
            steps (list[TraversalStep]):
            stopped (str): Why it stopped: `hops`, `no_edges`, `fired_budget` or `char_budget`.
            suppressed (list[UUID]): Nodes vetoed by an inhibitory edge out of a node that fired (corrections).
     """

    chars: int
    reached: list[Node]
    seeds: list[Node]
    steps: list[TraversalStep]
    stopped: str
    suppressed: list[UUID]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.node import Node # noqa: PLC0415
        from ..models.traversal_step import TraversalStep # noqa: PLC0415
        chars = self.chars

        reached = []
        for reached_item_data in self.reached:
            reached_item = reached_item_data.to_dict()
            reached.append(reached_item)



        seeds = []
        for seeds_item_data in self.seeds:
            seeds_item = seeds_item_data.to_dict()
            seeds.append(seeds_item)



        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)



        stopped = self.stopped

        suppressed = []
        for suppressed_item_data in self.suppressed:
            suppressed_item = str(suppressed_item_data)
            suppressed.append(suppressed_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chars": chars,
            "reached": reached,
            "seeds": seeds,
            "steps": steps,
            "stopped": stopped,
            "suppressed": suppressed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.node import Node # noqa: PLC0415
        from ..models.traversal_step import TraversalStep # noqa: PLC0415
        d = dict(src_dict)
        chars = d.pop("chars")

        reached = []
        _reached = d.pop("reached")
        for reached_item_data in (_reached):
            reached_item = Node.from_dict(reached_item_data)



            reached.append(reached_item)


        seeds = []
        _seeds = d.pop("seeds")
        for seeds_item_data in (_seeds):
            seeds_item = Node.from_dict(seeds_item_data)



            seeds.append(seeds_item)


        steps = []
        _steps = d.pop("steps")
        for steps_item_data in (_steps):
            steps_item = TraversalStep.from_dict(steps_item_data)



            steps.append(steps_item)


        stopped = d.pop("stopped")

        suppressed = []
        _suppressed = d.pop("suppressed")
        for suppressed_item_data in (_suppressed):
            suppressed_item = UUID(suppressed_item_data)



            suppressed.append(suppressed_item)


        trace = cls(
            chars=chars,
            reached=reached,
            seeds=seeds,
            steps=steps,
            stopped=stopped,
            suppressed=suppressed,
        )


        trace.additional_properties = d
        return trace

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
