from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="FeedbackInput")



@_attrs_define
class FeedbackInput:
    """ 
        Attributes:
            correction (None | str | Unset): What the reply should have said (1–2,000 characters): stored as a memory, and
                the memory
                it corrects is vetoed on this path. Owners, and keys with `memories:write`.
            memory_ids (list[UUID] | None | Unset): The memories of the reply the correction is about (at most 10, each one
                the reply used
                or traversal fired). Default: the used memory most similar to the correction.
            rating (None | str | Unset): `good` or `bad`; a correction implies `bad`.
     """

    correction: None | str | Unset = UNSET
    memory_ids: list[UUID] | None | Unset = UNSET
    rating: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        correction: None | str | Unset
        if isinstance(self.correction, Unset):
            correction = UNSET
        else:
            correction = self.correction

        memory_ids: list[str] | None | Unset
        if isinstance(self.memory_ids, Unset):
            memory_ids = UNSET
        elif isinstance(self.memory_ids, list):
            memory_ids = []
            for memory_ids_type_0_item_data in self.memory_ids:
                memory_ids_type_0_item = str(memory_ids_type_0_item_data)
                memory_ids.append(memory_ids_type_0_item)


        else:
            memory_ids = self.memory_ids

        rating: None | str | Unset
        if isinstance(self.rating, Unset):
            rating = UNSET
        else:
            rating = self.rating


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if correction is not UNSET:
            field_dict["correction"] = correction
        if memory_ids is not UNSET:
            field_dict["memory_ids"] = memory_ids
        if rating is not UNSET:
            field_dict["rating"] = rating

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_correction(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        correction = _parse_correction(d.pop("correction", UNSET))


        def _parse_memory_ids(data: object) -> list[UUID] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                memory_ids_type_0 = []
                _memory_ids_type_0 = data
                for memory_ids_type_0_item_data in (_memory_ids_type_0):
                    memory_ids_type_0_item = UUID(memory_ids_type_0_item_data)



                    memory_ids_type_0.append(memory_ids_type_0_item)

                return memory_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None | Unset, data)

        memory_ids = _parse_memory_ids(d.pop("memory_ids", UNSET))


        def _parse_rating(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rating = _parse_rating(d.pop("rating", UNSET))


        feedback_input = cls(
            correction=correction,
            memory_ids=memory_ids,
            rating=rating,
        )

        return feedback_input

