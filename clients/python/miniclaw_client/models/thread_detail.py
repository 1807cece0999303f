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
  from ..models.thread_message import ThreadMessage





T = TypeVar("T", bound="ThreadDetail")



@_attrs_define
class ThreadDetail:
    """ A thread with its emails, oldest first.

        Attributes:
            agent_id (UUID):
            body (str):
            created_at (datetime.datetime):
            drafted_by (str): Who wrote the draft: `model` (the `outreach` role), `offline` (the offline engine's
                template, no model configured), `owner`, or `agent` (given whole through its key).
            id (UUID):
            purpose (str):
            status (str): `proposed`, `approved`, `sent`, `replied`, `escalated`, `closed` or `rejected`.
            subject (str):
            target_email (str):
            updated_at (datetime.datetime):
            messages (list[ThreadMessage]):
            confidence (float | None | Unset):
            conversation_id (None | Unset | UUID): The chat conversation (channel `email`) its replies run through.
            escalation_reason (None | str | Unset):
            proposed_from (None | str | Unset): What the agent proposed it from when it did so on its own: `memory:<id>`
                (someone the
                owner said they want to reach) or `follow_up:<thread id>` (an email that got no answer);
                `null` for proposals of the owner or a key.
            reject_reason (None | str | Unset):
            suggested_reply (None | str | Unset): While escalated: the reply the agent suggests, its confidence and why it
                did not send it.
            target_name (None | str | Unset):
     """

    agent_id: UUID
    body: str
    created_at: datetime.datetime
    drafted_by: str
    id: UUID
    purpose: str
    status: str
    subject: str
    target_email: str
    updated_at: datetime.datetime
    messages: list[ThreadMessage]
    confidence: float | None | Unset = UNSET
    conversation_id: None | Unset | UUID = UNSET
    escalation_reason: None | str | Unset = UNSET
    proposed_from: None | str | Unset = UNSET
    reject_reason: None | str | Unset = UNSET
    suggested_reply: None | str | Unset = UNSET
    target_name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.thread_message import ThreadMessage # noqa: PLC0415
        agent_id = str(self.agent_id)

        body = self.body

        created_at = self.created_at.isoformat()

        drafted_by = self.drafted_by

        id = str(self.id)

        purpose = self.purpose

        status = self.status

        subject = self.subject

        target_email = self.target_email

        updated_at = self.updated_at.isoformat()

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)



        confidence: float | None | Unset
        if isinstance(self.confidence, Unset):
            confidence = UNSET
        else:
            confidence = self.confidence

        conversation_id: None | str | Unset
        if isinstance(self.conversation_id, Unset):
            conversation_id = UNSET
        elif isinstance(self.conversation_id, UUID):
            conversation_id = str(self.conversation_id)
        else:
            conversation_id = self.conversation_id

        escalation_reason: None | str | Unset
        if isinstance(self.escalation_reason, Unset):
            escalation_reason = UNSET
        else:
            escalation_reason = self.escalation_reason

        proposed_from: None | str | Unset
        if isinstance(self.proposed_from, Unset):
            proposed_from = UNSET
        else:
            proposed_from = self.proposed_from

        reject_reason: None | str | Unset
        if isinstance(self.reject_reason, Unset):
            reject_reason = UNSET
        else:
            reject_reason = self.reject_reason

        suggested_reply: None | str | Unset
        if isinstance(self.suggested_reply, Unset):
            suggested_reply = UNSET
        else:
            suggested_reply = self.suggested_reply

        target_name: None | str | Unset
        if isinstance(self.target_name, Unset):
            target_name = UNSET
        else:
            target_name = self.target_name


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "body": body,
            "created_at": created_at,
            "drafted_by": drafted_by,
            "id": id,
            "purpose": purpose,
            "status": status,
            "subject": subject,
            "target_email": target_email,
            "updated_at": updated_at,
            "messages": messages,
        })
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if conversation_id is not UNSET:
            field_dict["conversation_id"] = conversation_id
        if escalation_reason is not UNSET:
            field_dict["escalation_reason"] = escalation_reason
        if proposed_from is not UNSET:
            field_dict["proposed_from"] = proposed_from
        if reject_reason is not UNSET:
            field_dict["reject_reason"] = reject_reason
        if suggested_reply is not UNSET:
            field_dict["suggested_reply"] = suggested_reply
        if target_name is not UNSET:
            field_dict["target_name"] = target_name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.thread_message import ThreadMessage # noqa: PLC0415
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        body = d.pop("body")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        drafted_by = d.pop("drafted_by")

        id = UUID(d.pop("id"))




        purpose = d.pop("purpose")

        status = d.pop("status")

        subject = d.pop("subject")

        target_email = d.pop("target_email")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        messages = []
        _messages = d.pop("messages")
        for messages_item_data in (_messages):
            messages_item = ThreadMessage.from_dict(messages_item_data)



            messages.append(messages_item)


        def _parse_confidence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        confidence = _parse_confidence(d.pop("confidence", UNSET))


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


        def _parse_escalation_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        escalation_reason = _parse_escalation_reason(d.pop("escalation_reason", UNSET))


        def _parse_proposed_from(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        proposed_from = _parse_proposed_from(d.pop("proposed_from", UNSET))


        def _parse_reject_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reject_reason = _parse_reject_reason(d.pop("reject_reason", UNSET))


        def _parse_suggested_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        suggested_reply = _parse_suggested_reply(d.pop("suggested_reply", UNSET))


        def _parse_target_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        target_name = _parse_target_name(d.pop("target_name", UNSET))


        thread_detail = cls(
            agent_id=agent_id,
            body=body,
            created_at=created_at,
            drafted_by=drafted_by,
            id=id,
            purpose=purpose,
            status=status,
            subject=subject,
            target_email=target_email,
            updated_at=updated_at,
            messages=messages,
            confidence=confidence,
            conversation_id=conversation_id,
            escalation_reason=escalation_reason,
            proposed_from=proposed_from,
            reject_reason=reject_reason,
            suggested_reply=suggested_reply,
            target_name=target_name,
        )


        thread_detail.additional_properties = d
        return thread_detail

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
