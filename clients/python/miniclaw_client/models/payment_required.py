from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.requirement import Requirement
  from ..models.resource import Resource





T = TypeVar("T", bound="PaymentRequired")



@_attrs_define
class PaymentRequired:
    """ The x402 answer to an unpaid call.

        Attributes:
            accepts (list[Requirement]): The ways to pay, each good until `extra.expiresAt`.
            error (str): Why payment is (still) required.
            resource (Resource):
            x_402_version (int): 2.
     """

    accepts: list[Requirement]
    error: str
    resource: Resource
    x_402_version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.requirement import Requirement # noqa: PLC0415
        from ..models.resource import Resource # noqa: PLC0415
        accepts = []
        for accepts_item_data in self.accepts:
            accepts_item = accepts_item_data.to_dict()
            accepts.append(accepts_item)



        error = self.error

        resource = self.resource.to_dict()

        x_402_version = self.x_402_version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accepts": accepts,
            "error": error,
            "resource": resource,
            "x402Version": x_402_version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.requirement import Requirement # noqa: PLC0415
        from ..models.resource import Resource # noqa: PLC0415
        d = dict(src_dict)
        accepts = []
        _accepts = d.pop("accepts")
        for accepts_item_data in (_accepts):
            accepts_item = Requirement.from_dict(accepts_item_data)



            accepts.append(accepts_item)


        error = d.pop("error")

        resource = Resource.from_dict(d.pop("resource"))




        x_402_version = d.pop("x402Version")

        payment_required = cls(
            accepts=accepts,
            error=error,
            resource=resource,
            x_402_version=x_402_version,
        )


        payment_required.additional_properties = d
        return payment_required

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
