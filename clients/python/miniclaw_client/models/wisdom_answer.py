from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.moment import Moment
  from ..models.pick import Pick





T = TypeVar("T", bound="WisdomAnswer")



@_attrs_define
class WisdomAnswer:
    """ Teachings chosen for the agent's moment, best first.

        Attributes:
            moment (Moment): The moment a choice is made for.
            teachings (list[Pick]):
     """

    moment: Moment
    teachings: list[Pick]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.moment import Moment # noqa: PLC0415
        from ..models.pick import Pick # noqa: PLC0415
        moment = self.moment.to_dict()

        teachings = []
        for teachings_item_data in self.teachings:
            teachings_item = teachings_item_data.to_dict()
            teachings.append(teachings_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "moment": moment,
            "teachings": teachings,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.moment import Moment # noqa: PLC0415
        from ..models.pick import Pick # noqa: PLC0415
        d = dict(src_dict)
        moment = Moment.from_dict(d.pop("moment"))




        teachings = []
        _teachings = d.pop("teachings")
        for teachings_item_data in (_teachings):
            teachings_item = Pick.from_dict(teachings_item_data)



            teachings.append(teachings_item)


        wisdom_answer = cls(
            moment=moment,
            teachings=teachings,
        )


        wisdom_answer.additional_properties = d
        return wisdom_answer

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
