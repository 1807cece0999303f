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






T = TypeVar("T", bound="PortableRelation")



@_attrs_define
class PortableRelation:
    """ A relation between two memories of the bundle.

        Attributes:
            created_at (datetime.datetime):
            from_ (UUID): The newer memory's `id` in the bundle.
            kind (str): `updates`, `extends` or `derives`.
            to (UUID): The older memory's `id` in the bundle.
            reason (None | str | Unset):
     """

    created_at: datetime.datetime
    from_: UUID
    kind: str
    to: UUID
    reason: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        from_ = str(self.from_)

        kind = self.kind

        to = str(self.to)

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "created_at": created_at,
            "from": from_,
            "kind": kind,
            "to": to,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        from_ = UUID(d.pop("from"))




        kind = d.pop("kind")

        to = UUID(d.pop("to"))




        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        portable_relation = cls(
            created_at=created_at,
            from_=from_,
            kind=kind,
            to=to,
            reason=reason,
        )

        return portable_relation

