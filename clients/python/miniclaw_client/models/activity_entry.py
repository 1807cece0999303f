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
  from ..models.activity_entry_details import ActivityEntryDetails





T = TypeVar("T", bound="ActivityEntry")



@_attrs_define
class ActivityEntry:
    """ 
        Attributes:
            action (str): e.g. `agent.created`, `key.issued`, `key.revoked`, `agent.connected`.
            actor_type (str): `owner`, `api_key`, `job`, `admin` or `system`.
            created_at (datetime.datetime):
            details (ActivityEntryDetails):
            id (UUID):
            actor_id (None | str | Unset):
            actor_name (None | str | Unset): Who the member was (their address) when a member of the team acted
                (`team::name_actors`).
            agent_id (None | Unset | UUID):
            error (None | str | Unset): The verbatim error when the action failed.
            request_id (None | str | Unset):
     """

    action: str
    actor_type: str
    created_at: datetime.datetime
    details: ActivityEntryDetails
    id: UUID
    actor_id: None | str | Unset = UNSET
    actor_name: None | str | Unset = UNSET
    agent_id: None | Unset | UUID = UNSET
    error: None | str | Unset = UNSET
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_entry_details import ActivityEntryDetails # noqa: PLC0415
        action = self.action

        actor_type = self.actor_type

        created_at = self.created_at.isoformat()

        details = self.details.to_dict()

        id = str(self.id)

        actor_id: None | str | Unset
        if isinstance(self.actor_id, Unset):
            actor_id = UNSET
        else:
            actor_id = self.actor_id

        actor_name: None | str | Unset
        if isinstance(self.actor_name, Unset):
            actor_name = UNSET
        else:
            actor_name = self.actor_name

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "action": action,
            "actor_type": actor_type,
            "created_at": created_at,
            "details": details,
            "id": id,
        })
        if actor_id is not UNSET:
            field_dict["actor_id"] = actor_id
        if actor_name is not UNSET:
            field_dict["actor_name"] = actor_name
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if error is not UNSET:
            field_dict["error"] = error
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_entry_details import ActivityEntryDetails # noqa: PLC0415
        d = dict(src_dict)
        action = d.pop("action")

        actor_type = d.pop("actor_type")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        details = ActivityEntryDetails.from_dict(d.pop("details"))




        id = UUID(d.pop("id"))




        def _parse_actor_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actor_id = _parse_actor_id(d.pop("actor_id", UNSET))


        def _parse_actor_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actor_name = _parse_actor_name(d.pop("actor_name", UNSET))


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


        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("request_id", UNSET))


        activity_entry = cls(
            action=action,
            actor_type=actor_type,
            created_at=created_at,
            details=details,
            id=id,
            actor_id=actor_id,
            actor_name=actor_name,
            agent_id=agent_id,
            error=error,
            request_id=request_id,
        )


        activity_entry.additional_properties = d
        return activity_entry

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
