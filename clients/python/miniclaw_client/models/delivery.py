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

if TYPE_CHECKING:
  from ..models.delivery_data import DeliveryData
  from ..models.delivery_log_item import DeliveryLogItem





T = TypeVar("T", bound="Delivery")



@_attrs_define
class Delivery:
    """ One delivery of an event to an endpoint, with its last attempts.

        Attributes:
            attempts (int):
            created_at (datetime.datetime):
            data (DeliveryData):
            endpoint_id (UUID):
            event (str):
            id (UUID): Sent as `webhook-id` (`msg_` and this id without dashes), the same on every retry.
            log (list[DeliveryLogItem]): The last attempts, oldest first: `{at, status, error, ms}`.
            status (str): `pending`, `delivered` or `failed` (every attempt failed, or the endpoint is disabled).
            agent_id (None | Unset | UUID):
            delivered_at (datetime.datetime | None | Unset):
     """

    attempts: int
    created_at: datetime.datetime
    data: DeliveryData
    endpoint_id: UUID
    event: str
    id: UUID
    log: list[DeliveryLogItem]
    status: str
    agent_id: None | Unset | UUID = UNSET
    delivered_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_data import DeliveryData # noqa: PLC0415
        from ..models.delivery_log_item import DeliveryLogItem # noqa: PLC0415
        attempts = self.attempts

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        endpoint_id = str(self.endpoint_id)

        event = self.event

        id = str(self.id)

        log = []
        for log_item_data in self.log:
            log_item = log_item_data.to_dict()
            log.append(log_item)



        status = self.status

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        delivered_at: None | str | Unset
        if isinstance(self.delivered_at, Unset):
            delivered_at = UNSET
        elif isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempts": attempts,
            "created_at": created_at,
            "data": data,
            "endpoint_id": endpoint_id,
            "event": event,
            "id": id,
            "log": log,
            "status": status,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if delivered_at is not UNSET:
            field_dict["delivered_at"] = delivered_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_data import DeliveryData # noqa: PLC0415
        from ..models.delivery_log_item import DeliveryLogItem # noqa: PLC0415
        d = dict(src_dict)
        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        data = DeliveryData.from_dict(d.pop("data"))




        endpoint_id = UUID(d.pop("endpoint_id"))




        event = d.pop("event")

        id = UUID(d.pop("id"))




        log = []
        _log = d.pop("log")
        for log_item_data in (_log):
            log_item = DeliveryLogItem.from_dict(log_item_data)



            log.append(log_item)


        status = d.pop("status")

        def _parse_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                agent_id_type_0 = UUID(data)



                return agent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))


        def _parse_delivered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)



                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at", UNSET))


        delivery = cls(
            attempts=attempts,
            created_at=created_at,
            data=data,
            endpoint_id=endpoint_id,
            event=event,
            id=id,
            log=log,
            status=status,
            agent_id=agent_id,
            delivered_at=delivered_at,
        )


        delivery.additional_properties = d
        return delivery

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
