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
  from ..models.remote_tool import RemoteTool





T = TypeVar("T", bound="McpServer")



@_attrs_define
class McpServer:
    """ An attached server (its secret never leaves the database).

        Attributes:
            approval (str): `writes` (tools not marked read-only wait for the owner's approval) or `never`.
            available_to (list[str]): The speakers whose turns may run its tools: `owner` (always), and any of `owner_key`,
                `end_user`, `correspondent`, `peer`, `payer`.
            created_at (datetime.datetime):
            has_secret (bool):
            id (UUID):
            name (str): 1–24 lower-case letters, digits and dashes; the tools are offered as `mcp_<name>_<tool>`.
            tools (list[RemoteTool]): The tools as the server last listed them.
            url (str):
            tools_listed_at (datetime.datetime | None | Unset):
     """

    approval: str
    available_to: list[str]
    created_at: datetime.datetime
    has_secret: bool
    id: UUID
    name: str
    tools: list[RemoteTool]
    url: str
    tools_listed_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.remote_tool import RemoteTool # noqa: PLC0415
        approval = self.approval

        available_to = self.available_to



        created_at = self.created_at.isoformat()

        has_secret = self.has_secret

        id = str(self.id)

        name = self.name

        tools = []
        for tools_item_data in self.tools:
            tools_item = tools_item_data.to_dict()
            tools.append(tools_item)



        url = self.url

        tools_listed_at: None | str | Unset
        if isinstance(self.tools_listed_at, Unset):
            tools_listed_at = UNSET
        elif isinstance(self.tools_listed_at, datetime.datetime):
            tools_listed_at = self.tools_listed_at.isoformat()
        else:
            tools_listed_at = self.tools_listed_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "approval": approval,
            "available_to": available_to,
            "created_at": created_at,
            "has_secret": has_secret,
            "id": id,
            "name": name,
            "tools": tools,
            "url": url,
        })
        if tools_listed_at is not UNSET:
            field_dict["tools_listed_at"] = tools_listed_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.remote_tool import RemoteTool # noqa: PLC0415
        d = dict(src_dict)
        approval = d.pop("approval")

        available_to = cast(list[str], d.pop("available_to"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        has_secret = d.pop("has_secret")

        id = UUID(d.pop("id"))




        name = d.pop("name")

        tools = []
        _tools = d.pop("tools")
        for tools_item_data in (_tools):
            tools_item = RemoteTool.from_dict(tools_item_data)



            tools.append(tools_item)


        url = d.pop("url")

        def _parse_tools_listed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tools_listed_at_type_0 = datetime.datetime.fromisoformat(data)



                return tools_listed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        tools_listed_at = _parse_tools_listed_at(d.pop("tools_listed_at", UNSET))


        mcp_server = cls(
            approval=approval,
            available_to=available_to,
            created_at=created_at,
            has_secret=has_secret,
            id=id,
            name=name,
            tools=tools,
            url=url,
            tools_listed_at=tools_listed_at,
        )


        mcp_server.additional_properties = d
        return mcp_server

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
