from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.coordinates import Coordinates





T = TypeVar("T", bound="LiveState")



@_attrs_define
class LiveState:
    """ The live state now: the coordinates, how much they can be trusted and the door a resumed
    conversation would take.

        Attributes:
            confidence (float):
            door (int): 3 (< 2 h), 2 (2–24 h) or 1 (older, or nothing saved).
            recovery (str): The block a conversation resumed now would start with.
            coordinates (Coordinates | None | Unset):
            saved_at (datetime.datetime | None | Unset):
     """

    confidence: float
    door: int
    recovery: str
    coordinates: Coordinates | None | Unset = UNSET
    saved_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.coordinates import Coordinates # noqa: PLC0415
        confidence = self.confidence

        door = self.door

        recovery = self.recovery

        coordinates: dict[str, Any] | None | Unset
        if isinstance(self.coordinates, Unset):
            coordinates = UNSET
        elif isinstance(self.coordinates, Coordinates):
            coordinates = self.coordinates.to_dict()
        else:
            coordinates = self.coordinates

        saved_at: None | str | Unset
        if isinstance(self.saved_at, Unset):
            saved_at = UNSET
        elif isinstance(self.saved_at, datetime.datetime):
            saved_at = self.saved_at.isoformat()
        else:
            saved_at = self.saved_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "confidence": confidence,
            "door": door,
            "recovery": recovery,
        })
        if coordinates is not UNSET:
            field_dict["coordinates"] = coordinates
        if saved_at is not UNSET:
            field_dict["saved_at"] = saved_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.coordinates import Coordinates # noqa: PLC0415
        d = dict(src_dict)
        confidence = d.pop("confidence")

        door = d.pop("door")

        recovery = d.pop("recovery")

        def _parse_coordinates(data: object) -> Coordinates | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                coordinates_type_1 = Coordinates.from_dict(data)



                return coordinates_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Coordinates | None | Unset, data)

        coordinates = _parse_coordinates(d.pop("coordinates", UNSET))


        def _parse_saved_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                saved_at_type_0 = datetime.datetime.fromisoformat(data)



                return saved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        saved_at = _parse_saved_at(d.pop("saved_at", UNSET))


        live_state = cls(
            confidence=confidence,
            door=door,
            recovery=recovery,
            coordinates=coordinates,
            saved_at=saved_at,
        )


        live_state.additional_properties = d
        return live_state

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
