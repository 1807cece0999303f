from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.route import Route





T = TypeVar("T", bound="RoutingTable")



@_attrs_define
class RoutingTable:
    """ 
        Attributes:
            routes (list[Route]):
     """

    routes: list[Route]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.route import Route # noqa: PLC0415
        routes = []
        for routes_item_data in self.routes:
            routes_item = routes_item_data.to_dict()
            routes.append(routes_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "routes": routes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.route import Route # noqa: PLC0415
        d = dict(src_dict)
        routes = []
        _routes = d.pop("routes")
        for routes_item_data in (_routes):
            routes_item = Route.from_dict(routes_item_data)



            routes.append(routes_item)


        routing_table = cls(
            routes=routes,
        )


        routing_table.additional_properties = d
        return routing_table

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
