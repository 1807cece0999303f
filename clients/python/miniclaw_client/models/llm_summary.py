from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.llm_line import LlmLine





T = TypeVar("T", bound="LlmSummary")



@_attrs_define
class LlmSummary:
    """ Every model call of the range.

        Attributes:
            by_call_type (list[LlmLine]):
            by_model (list[LlmLine]): Most expensive first.
            calls (int):
            total_cost_usd (float):
     """

    by_call_type: list[LlmLine]
    by_model: list[LlmLine]
    calls: int
    total_cost_usd: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.llm_line import LlmLine # noqa: PLC0415
        by_call_type = []
        for by_call_type_item_data in self.by_call_type:
            by_call_type_item = by_call_type_item_data.to_dict()
            by_call_type.append(by_call_type_item)



        by_model = []
        for by_model_item_data in self.by_model:
            by_model_item = by_model_item_data.to_dict()
            by_model.append(by_model_item)



        calls = self.calls

        total_cost_usd = self.total_cost_usd


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "by_call_type": by_call_type,
            "by_model": by_model,
            "calls": calls,
            "total_cost_usd": total_cost_usd,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.llm_line import LlmLine # noqa: PLC0415
        d = dict(src_dict)
        by_call_type = []
        _by_call_type = d.pop("by_call_type")
        for by_call_type_item_data in (_by_call_type):
            by_call_type_item = LlmLine.from_dict(by_call_type_item_data)



            by_call_type.append(by_call_type_item)


        by_model = []
        _by_model = d.pop("by_model")
        for by_model_item_data in (_by_model):
            by_model_item = LlmLine.from_dict(by_model_item_data)



            by_model.append(by_model_item)


        calls = d.pop("calls")

        total_cost_usd = d.pop("total_cost_usd")

        llm_summary = cls(
            by_call_type=by_call_type,
            by_model=by_model,
            calls=calls,
            total_cost_usd=total_cost_usd,
        )


        llm_summary.additional_properties = d
        return llm_summary

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
