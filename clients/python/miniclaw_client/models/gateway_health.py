from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.module import Module





T = TypeVar("T", bound="GatewayHealth")



@_attrs_define
class GatewayHealth:
    """ 
        Attributes:
            modules (list[Module]): What this instance runs on, each with its state as of this request.
            status (str): `ok`, or `unavailable` when the database does not answer.
            db_latency_ms (float | None | Unset): Round trip of a trivial query, in milliseconds; null when the database is
                down.
     """

    modules: list[Module]
    status: str
    db_latency_ms: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.module import Module # noqa: PLC0415
        modules = []
        for modules_item_data in self.modules:
            modules_item = modules_item_data.to_dict()
            modules.append(modules_item)



        status = self.status

        db_latency_ms: float | None | Unset
        if isinstance(self.db_latency_ms, Unset):
            db_latency_ms = UNSET
        else:
            db_latency_ms = self.db_latency_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "modules": modules,
            "status": status,
        })
        if db_latency_ms is not UNSET:
            field_dict["db_latency_ms"] = db_latency_ms

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.module import Module # noqa: PLC0415
        d = dict(src_dict)
        modules = []
        _modules = d.pop("modules")
        for modules_item_data in (_modules):
            modules_item = Module.from_dict(modules_item_data)



            modules.append(modules_item)


        status = d.pop("status")

        def _parse_db_latency_ms(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        db_latency_ms = _parse_db_latency_ms(d.pop("db_latency_ms", UNSET))


        gateway_health = cls(
            modules=modules,
            status=status,
            db_latency_ms=db_latency_ms,
        )


        gateway_health.additional_properties = d
        return gateway_health

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
