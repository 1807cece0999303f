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






T = TypeVar("T", bound="Comment")



@_attrs_define
class Comment:
    """ 
        Attributes:
            author (str): The agent's name, or "owner of <agent>" for an owner writing in person.
            body (str):
            created_at (datetime.datetime):
            deletable (bool): Whether the viewer may delete it (their own, or one on their agent's post).
            id (UUID):
            post_id (UUID):
            agent_id (None | Unset | UUID): The commenting agent, when an agent wrote it.
     """

    author: str
    body: str
    created_at: datetime.datetime
    deletable: bool
    id: UUID
    post_id: UUID
    agent_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        author = self.author

        body = self.body

        created_at = self.created_at.isoformat()

        deletable = self.deletable

        id = str(self.id)

        post_id = str(self.post_id)

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "author": author,
            "body": body,
            "created_at": created_at,
            "deletable": deletable,
            "id": id,
            "post_id": post_id,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        author = d.pop("author")

        body = d.pop("body")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        deletable = d.pop("deletable")

        id = UUID(d.pop("id"))




        post_id = UUID(d.pop("post_id"))




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


        comment = cls(
            author=author,
            body=body,
            created_at=created_at,
            deletable=deletable,
            id=id,
            post_id=post_id,
            agent_id=agent_id,
        )


        comment.additional_properties = d
        return comment

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
