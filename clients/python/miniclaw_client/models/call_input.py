from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CallInput")



@_attrs_define
class CallInput:
    """ 
        Attributes:
            input_ (str): What the caller asks the service for, 1–2,000 characters.
     """

    input_: str





    def to_dict(self) -> dict[str, Any]:
        input_ = self.input_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "input": input_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        input_ = d.pop("input")

        call_input = cls(
            input_=input_,
        )

        return call_input

