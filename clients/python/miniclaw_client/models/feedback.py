from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="Feedback")



@_attrs_define
class Feedback:
    """ The feedback a reply has, and what it changed.

        Attributes:
            created_at (datetime.datetime):
            edges_updated (int): Edges the rating moved (every outgoing edge of every node on the path).
            inhibited (list[UUID]): The memories the correction vetoes.
            message_id (UUID):
            rating (str): `good` or `bad`.
            updated_at (datetime.datetime):
            correction (None | str | Unset):
            correction_memory_id (None | Unset | UUID):
     """

    created_at: datetime.datetime
    edges_updated: int
    inhibited: list[UUID]
    message_id: UUID
    rating: str
    updated_at: datetime.datetime
    correction: None | str | Unset = UNSET
    correction_memory_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        edges_updated = self.edges_updated

        inhibited = []
        for inhibited_item_data in self.inhibited:
            inhibited_item = str(inhibited_item_data)
            inhibited.append(inhibited_item)



        message_id = str(self.message_id)

        rating = self.rating

        updated_at = self.updated_at.isoformat()

        correction: None | str | Unset
        if isinstance(self.correction, Unset):
            correction = UNSET
        else:
            correction = self.correction

        correction_memory_id: None | str | Unset
        if isinstance(self.correction_memory_id, Unset):
            correction_memory_id = UNSET
        elif isinstance(self.correction_memory_id, UUID):
            correction_memory_id = str(self.correction_memory_id)
        else:
            correction_memory_id = self.correction_memory_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "edges_updated": edges_updated,
            "inhibited": inhibited,
            "message_id": message_id,
            "rating": rating,
            "updated_at": updated_at,
        })
        if correction is not UNSET:
            field_dict["correction"] = correction
        if correction_memory_id is not UNSET:
            field_dict["correction_memory_id"] = correction_memory_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        edges_updated = d.pop("edges_updated")

        inhibited = []
        _inhibited = d.pop("inhibited")
        for inhibited_item_data in (_inhibited):
            inhibited_item = UUID(inhibited_item_data)



            inhibited.append(inhibited_item)


        message_id = UUID(d.pop("message_id"))




        rating = d.pop("rating")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_correction(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        correction = _parse_correction(d.pop("correction", UNSET))


        def _parse_correction_memory_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                correction_memory_id_type_1 = UUID(data)



                return correction_memory_id_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        correction_memory_id = _parse_correction_memory_id(d.pop("correction_memory_id", UNSET))


        feedback = cls(
            created_at=created_at,
            edges_updated=edges_updated,
            inhibited=inhibited,
            message_id=message_id,
            rating=rating,
            updated_at=updated_at,
            correction=correction,
            correction_memory_id=correction_memory_id,
        )


        feedback.additional_properties = d
        return feedback

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
