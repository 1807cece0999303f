from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="SearchFilters")



@_attrs_define
class SearchFilters:
    """ 
        Attributes:
            category (list[str] | Unset):
            end_user (None | str | Unset): Only the memories learned from this end user (SPEC H1; Mem0's `user_id`), or `-`
                for
                the agent's own knowledge. A request acting for an end user reads the agent's own
                knowledge and theirs at most.
            from_ (datetime.datetime | None | Unset): Said or happened at or after (`occurred_at`).
            source (list[str] | Unset):
            status (list[str] | Unset): Default: the live statuses, `active` and `dormant`.
            to (datetime.datetime | None | Unset): Said or happened before (`occurred_at`).
     """

    category: list[str] | Unset = UNSET
    end_user: None | str | Unset = UNSET
    from_: datetime.datetime | None | Unset = UNSET
    source: list[str] | Unset = UNSET
    status: list[str] | Unset = UNSET
    to: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        category: list[str] | Unset = UNSET
        if not isinstance(self.category, Unset):
            category = self.category



        end_user: None | str | Unset
        if isinstance(self.end_user, Unset):
            end_user = UNSET
        else:
            end_user = self.end_user

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        elif isinstance(self.from_, datetime.datetime):
            from_ = self.from_.isoformat()
        else:
            from_ = self.from_

        source: list[str] | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = self.source



        status: list[str] | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status



        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        elif isinstance(self.to, datetime.datetime):
            to = self.to.isoformat()
        else:
            to = self.to


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if category is not UNSET:
            field_dict["category"] = category
        if end_user is not UNSET:
            field_dict["end_user"] = end_user
        if from_ is not UNSET:
            field_dict["from"] = from_
        if source is not UNSET:
            field_dict["source"] = source
        if status is not UNSET:
            field_dict["status"] = status
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = cast(list[str], d.pop("category", UNSET))


        def _parse_end_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_user = _parse_end_user(d.pop("end_user", UNSET))


        def _parse_from_(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_type_0 = datetime.datetime.fromisoformat(data)



                return from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))


        source = cast(list[str], d.pop("source", UNSET))


        status = cast(list[str], d.pop("status", UNSET))


        def _parse_to(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_type_0 = datetime.datetime.fromisoformat(data)



                return to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        to = _parse_to(d.pop("to", UNSET))


        search_filters = cls(
            category=category,
            end_user=end_user,
            from_=from_,
            source=source,
            status=status,
            to=to,
        )

        return search_filters

