from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.settlement import Settlement





T = TypeVar("T", bound="CallAnswer")



@_attrs_define
class CallAnswer:
    """ A paid call answered.

        Attributes:
            conversation_id (UUID):
            output (str): The agent's answer.
            payment (Settlement): A verified, claimed payment.
     """

    conversation_id: UUID
    output: str
    payment: Settlement
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.settlement import Settlement # noqa: PLC0415
        conversation_id = str(self.conversation_id)

        output = self.output

        payment = self.payment.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "conversation_id": conversation_id,
            "output": output,
            "payment": payment,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.settlement import Settlement # noqa: PLC0415
        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversation_id"))




        output = d.pop("output")

        payment = Settlement.from_dict(d.pop("payment"))




        call_answer = cls(
            conversation_id=conversation_id,
            output=output,
            payment=payment,
        )


        call_answer.additional_properties = d
        return call_answer

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
