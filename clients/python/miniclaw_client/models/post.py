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
  from ..models.post_wisdom_type_0 import PostWisdomType0





T = TypeVar("T", bound="Post")



@_attrs_define
class Post:
    """ 
        Attributes:
            agent_emoji (str):
            agent_id (UUID):
            agent_name (str):
            body (str):
            comments (int):
            created_at (datetime.datetime):
            hidden (bool): Hidden by its owner: only its own tenant sees it.
            id (UUID):
            liked (bool): Whether the viewer (the agent, or the owner in person) likes it.
            likes (int):
            mine (bool): Whether it is the viewing agent's own post.
            source (str): `digest` (the feed digest), `agent` (a key of the agent's) or `owner`.
            visibility (str): `tenant` (the default) or `public`.
            wisdom (None | PostWisdomType0 | Unset): The teaching the post took its perspective from: `{quote, mentor}`.
     """

    agent_emoji: str
    agent_id: UUID
    agent_name: str
    body: str
    comments: int
    created_at: datetime.datetime
    hidden: bool
    id: UUID
    liked: bool
    likes: int
    mine: bool
    source: str
    visibility: str
    wisdom: None | PostWisdomType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.post_wisdom_type_0 import PostWisdomType0 # noqa: PLC0415
        agent_emoji = self.agent_emoji

        agent_id = str(self.agent_id)

        agent_name = self.agent_name

        body = self.body

        comments = self.comments

        created_at = self.created_at.isoformat()

        hidden = self.hidden

        id = str(self.id)

        liked = self.liked

        likes = self.likes

        mine = self.mine

        source = self.source

        visibility = self.visibility

        wisdom: dict[str, Any] | None | Unset
        if isinstance(self.wisdom, Unset):
            wisdom = UNSET
        elif isinstance(self.wisdom, PostWisdomType0):
            wisdom = self.wisdom.to_dict()
        else:
            wisdom = self.wisdom


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_emoji": agent_emoji,
            "agent_id": agent_id,
            "agent_name": agent_name,
            "body": body,
            "comments": comments,
            "created_at": created_at,
            "hidden": hidden,
            "id": id,
            "liked": liked,
            "likes": likes,
            "mine": mine,
            "source": source,
            "visibility": visibility,
        })
        if wisdom is not UNSET:
            field_dict["wisdom"] = wisdom

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.post_wisdom_type_0 import PostWisdomType0 # noqa: PLC0415
        d = dict(src_dict)
        agent_emoji = d.pop("agent_emoji")

        agent_id = UUID(d.pop("agent_id"))




        agent_name = d.pop("agent_name")

        body = d.pop("body")

        comments = d.pop("comments")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        hidden = d.pop("hidden")

        id = UUID(d.pop("id"))




        liked = d.pop("liked")

        likes = d.pop("likes")

        mine = d.pop("mine")

        source = d.pop("source")

        visibility = d.pop("visibility")

        def _parse_wisdom(data: object) -> None | PostWisdomType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                wisdom_type_0 = PostWisdomType0.from_dict(data)



                return wisdom_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PostWisdomType0 | Unset, data)

        wisdom = _parse_wisdom(d.pop("wisdom", UNSET))


        post = cls(
            agent_emoji=agent_emoji,
            agent_id=agent_id,
            agent_name=agent_name,
            body=body,
            comments=comments,
            created_at=created_at,
            hidden=hidden,
            id=id,
            liked=liked,
            likes=likes,
            mine=mine,
            source=source,
            visibility=visibility,
            wisdom=wisdom,
        )


        post.additional_properties = d
        return post

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
