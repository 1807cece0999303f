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
  from ..models.mcp_call_arguments import McpCallArguments





T = TypeVar("T", bound="McpCall")



@_attrs_define
class McpCall:
    """ A call the agent made, or asked to make, to one of these tools.

        Attributes:
            actor_type (str): Who was speaking when the agent called it: owner, api_key, ...
            arguments (McpCallArguments):
            created_at (datetime.datetime):
            id (UUID):
            server_id (UUID):
            status (str): pending (waits for the owner), running, done, failed or rejected.
            tool (str):
            actor_id (None | str | Unset):
            decided_at (datetime.datetime | None | Unset):
            result (None | str | Unset):
            speaker (None | str | Unset): The turn's speaker (`owner`, `owner_key`, `end_user`, `correspondent`, `peer`,
                `payer`).
     """

    actor_type: str
    arguments: McpCallArguments
    created_at: datetime.datetime
    id: UUID
    server_id: UUID
    status: str
    tool: str
    actor_id: None | str | Unset = UNSET
    decided_at: datetime.datetime | None | Unset = UNSET
    result: None | str | Unset = UNSET
    speaker: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.mcp_call_arguments import McpCallArguments # noqa: PLC0415
        actor_type = self.actor_type

        arguments = self.arguments.to_dict()

        created_at = self.created_at.isoformat()

        id = str(self.id)

        server_id = str(self.server_id)

        status = self.status

        tool = self.tool

        actor_id: None | str | Unset
        if isinstance(self.actor_id, Unset):
            actor_id = UNSET
        else:
            actor_id = self.actor_id

        decided_at: None | str | Unset
        if isinstance(self.decided_at, Unset):
            decided_at = UNSET
        elif isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        result: None | str | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        else:
            result = self.result

        speaker: None | str | Unset
        if isinstance(self.speaker, Unset):
            speaker = UNSET
        else:
            speaker = self.speaker


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "actor_type": actor_type,
            "arguments": arguments,
            "created_at": created_at,
            "id": id,
            "server_id": server_id,
            "status": status,
            "tool": tool,
        })
        if actor_id is not UNSET:
            field_dict["actor_id"] = actor_id
        if decided_at is not UNSET:
            field_dict["decided_at"] = decided_at
        if result is not UNSET:
            field_dict["result"] = result
        if speaker is not UNSET:
            field_dict["speaker"] = speaker

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mcp_call_arguments import McpCallArguments # noqa: PLC0415
        d = dict(src_dict)
        actor_type = d.pop("actor_type")

        arguments = McpCallArguments.from_dict(d.pop("arguments"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        server_id = UUID(d.pop("server_id"))




        status = d.pop("status")

        tool = d.pop("tool")

        def _parse_actor_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actor_id = _parse_actor_id(d.pop("actor_id", UNSET))


        def _parse_decided_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)



                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        decided_at = _parse_decided_at(d.pop("decided_at", UNSET))


        def _parse_result(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        def _parse_speaker(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        speaker = _parse_speaker(d.pop("speaker", UNSET))


        mcp_call = cls(
            actor_type=actor_type,
            arguments=arguments,
            created_at=created_at,
            id=id,
            server_id=server_id,
            status=status,
            tool=tool,
            actor_id=actor_id,
            decided_at=decided_at,
            result=result,
            speaker=speaker,
        )


        mcp_call.additional_properties = d
        return mcp_call

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
