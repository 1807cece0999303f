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






T = TypeVar("T", bound="Item")



@_attrs_define
class Item:
    """ One thing the agent did, or held back, unprompted.

        Attributes:
            created_at (datetime.datetime):
            gap (str): What it is about, in the owner's words where there are some.
            id (UUID):
            kind (str): `check_in` (a message) or `task` (a task suggestion, pending approval).
            level (str): The dial level it needs: `urgent`, `information` or `speculative`.
            message (str): What the agent says (or the suggested task's title).
            rule (str): The rule that let it through (and the diagnosis's justification).
            signal (str): `unresolved_question`, `deadline`, `stale`, `distress`, `follow_up`, `todo` or `reminder`.
            source (str): `gap_scanner` or `inner_thought`.
            status (str): `scheduled`, `sent`, `accepted`, `dismissed`, `ignored` or `suppressed`.
            timing (str): `urgent_now`, `next_morning`, `active_hours` or `next_active`.
            urgency (str): `high`, `medium` or `low`, from the diagnosis.
            conversation_id (None | Unset | UUID):
            deliver_at (datetime.datetime | None | Unset): When it goes; `null` for `next_active` (when the owner next
                writes).
            message_id (None | Unset | UUID):
            resolved_at (datetime.datetime | None | Unset):
            sent_at (datetime.datetime | None | Unset):
            status_reason (None | str | Unset): Why it was held back or postponed.
            task_id (None | Unset | UUID):
     """

    created_at: datetime.datetime
    gap: str
    id: UUID
    kind: str
    level: str
    message: str
    rule: str
    signal: str
    source: str
    status: str
    timing: str
    urgency: str
    conversation_id: None | Unset | UUID = UNSET
    deliver_at: datetime.datetime | None | Unset = UNSET
    message_id: None | Unset | UUID = UNSET
    resolved_at: datetime.datetime | None | Unset = UNSET
    sent_at: datetime.datetime | None | Unset = UNSET
    status_reason: None | str | Unset = UNSET
    task_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        gap = self.gap

        id = str(self.id)

        kind = self.kind

        level = self.level

        message = self.message

        rule = self.rule

        signal = self.signal

        source = self.source

        status = self.status

        timing = self.timing

        urgency = self.urgency

        conversation_id: None | str | Unset
        if isinstance(self.conversation_id, Unset):
            conversation_id = UNSET
        elif isinstance(self.conversation_id, UUID):
            conversation_id = str(self.conversation_id)
        else:
            conversation_id = self.conversation_id

        deliver_at: None | str | Unset
        if isinstance(self.deliver_at, Unset):
            deliver_at = UNSET
        elif isinstance(self.deliver_at, datetime.datetime):
            deliver_at = self.deliver_at.isoformat()
        else:
            deliver_at = self.deliver_at

        message_id: None | str | Unset
        if isinstance(self.message_id, Unset):
            message_id = UNSET
        elif isinstance(self.message_id, UUID):
            message_id = str(self.message_id)
        else:
            message_id = self.message_id

        resolved_at: None | str | Unset
        if isinstance(self.resolved_at, Unset):
            resolved_at = UNSET
        elif isinstance(self.resolved_at, datetime.datetime):
            resolved_at = self.resolved_at.isoformat()
        else:
            resolved_at = self.resolved_at

        sent_at: None | str | Unset
        if isinstance(self.sent_at, Unset):
            sent_at = UNSET
        elif isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        status_reason: None | str | Unset
        if isinstance(self.status_reason, Unset):
            status_reason = UNSET
        else:
            status_reason = self.status_reason

        task_id: None | str | Unset
        if isinstance(self.task_id, Unset):
            task_id = UNSET
        elif isinstance(self.task_id, UUID):
            task_id = str(self.task_id)
        else:
            task_id = self.task_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "gap": gap,
            "id": id,
            "kind": kind,
            "level": level,
            "message": message,
            "rule": rule,
            "signal": signal,
            "source": source,
            "status": status,
            "timing": timing,
            "urgency": urgency,
        })
        if conversation_id is not UNSET:
            field_dict["conversation_id"] = conversation_id
        if deliver_at is not UNSET:
            field_dict["deliver_at"] = deliver_at
        if message_id is not UNSET:
            field_dict["message_id"] = message_id
        if resolved_at is not UNSET:
            field_dict["resolved_at"] = resolved_at
        if sent_at is not UNSET:
            field_dict["sent_at"] = sent_at
        if status_reason is not UNSET:
            field_dict["status_reason"] = status_reason
        if task_id is not UNSET:
            field_dict["task_id"] = task_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        gap = d.pop("gap")

        id = UUID(d.pop("id"))




        kind = d.pop("kind")

        level = d.pop("level")

        message = d.pop("message")

        rule = d.pop("rule")

        signal = d.pop("signal")

        source = d.pop("source")

        status = d.pop("status")

        timing = d.pop("timing")

        urgency = d.pop("urgency")

        def _parse_conversation_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                conversation_id_type_0 = UUID(data)



                return conversation_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        conversation_id = _parse_conversation_id(d.pop("conversation_id", UNSET))


        def _parse_deliver_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deliver_at_type_0 = datetime.datetime.fromisoformat(data)



                return deliver_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deliver_at = _parse_deliver_at(d.pop("deliver_at", UNSET))


        def _parse_message_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                message_id_type_0 = UUID(data)



                return message_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        message_id = _parse_message_id(d.pop("message_id", UNSET))


        def _parse_resolved_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolved_at_type_0 = datetime.datetime.fromisoformat(data)



                return resolved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        resolved_at = _parse_resolved_at(d.pop("resolved_at", UNSET))


        def _parse_sent_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)



                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        sent_at = _parse_sent_at(d.pop("sent_at", UNSET))


        def _parse_status_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status_reason = _parse_status_reason(d.pop("status_reason", UNSET))


        def _parse_task_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                task_id_type_0 = UUID(data)



                return task_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        task_id = _parse_task_id(d.pop("task_id", UNSET))


        item = cls(
            created_at=created_at,
            gap=gap,
            id=id,
            kind=kind,
            level=level,
            message=message,
            rule=rule,
            signal=signal,
            source=source,
            status=status,
            timing=timing,
            urgency=urgency,
            conversation_id=conversation_id,
            deliver_at=deliver_at,
            message_id=message_id,
            resolved_at=resolved_at,
            sent_at=sent_at,
            status_reason=status_reason,
            task_id=task_id,
        )


        item.additional_properties = d
        return item

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
