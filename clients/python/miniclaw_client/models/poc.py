from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.grade import Grade
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.backing import Backing
  from ..models.dimension import Dimension





T = TypeVar("T", bound="Poc")



@_attrs_define
class Poc:
    """ An agent's score now, with every sub-signal.

        Attributes:
            agent_id (UUID):
            backing (Backing): The backing boost: `min(total / 100000, 0.10)`.
            base (float): The weighted sum of the dimensions (the sum of their `weighted`), before the backing.
            computed_at (datetime.datetime):
            dimensions (list[Dimension]): identity, social, economy, skills, reputation.
            grade (Grade):
            total (int): 0–100.
     """

    agent_id: UUID
    backing: Backing
    base: float
    computed_at: datetime.datetime
    dimensions: list[Dimension]
    grade: Grade
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.backing import Backing # noqa: PLC0415
        from ..models.dimension import Dimension # noqa: PLC0415
        agent_id = str(self.agent_id)

        backing = self.backing.to_dict()

        base = self.base

        computed_at = self.computed_at.isoformat()

        dimensions = []
        for dimensions_item_data in self.dimensions:
            dimensions_item = dimensions_item_data.to_dict()
            dimensions.append(dimensions_item)



        grade = self.grade.value

        total = self.total


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "backing": backing,
            "base": base,
            "computed_at": computed_at,
            "dimensions": dimensions,
            "grade": grade,
            "total": total,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.backing import Backing # noqa: PLC0415
        from ..models.dimension import Dimension # noqa: PLC0415
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        backing = Backing.from_dict(d.pop("backing"))




        base = d.pop("base")

        computed_at = datetime.datetime.fromisoformat(d.pop("computed_at"))




        dimensions = []
        _dimensions = d.pop("dimensions")
        for dimensions_item_data in (_dimensions):
            dimensions_item = Dimension.from_dict(dimensions_item_data)



            dimensions.append(dimensions_item)


        grade = Grade(d.pop("grade"))




        total = d.pop("total")

        poc = cls(
            agent_id=agent_id,
            backing=backing,
            base=base,
            computed_at=computed_at,
            dimensions=dimensions,
            grade=grade,
            total=total,
        )


        poc.additional_properties = d
        return poc

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
