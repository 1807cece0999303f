from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="McpCallDecision")



@_attrs_define
class McpCallDecision:
    """ 
        Attributes:
            approve (bool): true runs the call now; false refuses it.
     """

    approve: bool





    def to_dict(self) -> dict[str, Any]:
        approve = self.approve


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "approve": approve,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        approve = d.pop("approve")

        mcp_call_decision = cls(
            approve=approve,
        )

        return mcp_call_decision

