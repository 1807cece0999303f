from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verification_provider import VerificationProvider
from ..models.verification_status import VerificationStatus
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="WebhookDelivery")



@_attrs_define
class WebhookDelivery:
    """ A provider's delivery to the verification webhook.

        Attributes:
            agent_id (UUID):
            provider (VerificationProvider): A human-verification provider (SPEC I3): Self.xyz (zero-knowledge passport
                proof) or
                Talent Protocol (builder credentials and score).
            status (VerificationStatus): The outcome of a human verification (SPEC I3).
            checked_at (datetime.datetime | None | Unset):
            evidence_hash (None | str | Unset):
            evidence_url (None | str | Unset):
            note (None | str | Unset):
            score (float | None | Unset):
     """

    agent_id: UUID
    provider: VerificationProvider
    status: VerificationStatus
    checked_at: datetime.datetime | None | Unset = UNSET
    evidence_hash: None | str | Unset = UNSET
    evidence_url: None | str | Unset = UNSET
    note: None | str | Unset = UNSET
    score: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        provider = self.provider.value

        status = self.status.value

        checked_at: None | str | Unset
        if isinstance(self.checked_at, Unset):
            checked_at = UNSET
        elif isinstance(self.checked_at, datetime.datetime):
            checked_at = self.checked_at.isoformat()
        else:
            checked_at = self.checked_at

        evidence_hash: None | str | Unset
        if isinstance(self.evidence_hash, Unset):
            evidence_hash = UNSET
        else:
            evidence_hash = self.evidence_hash

        evidence_url: None | str | Unset
        if isinstance(self.evidence_url, Unset):
            evidence_url = UNSET
        else:
            evidence_url = self.evidence_url

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        score: float | None | Unset
        if isinstance(self.score, Unset):
            score = UNSET
        else:
            score = self.score


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_id": agent_id,
            "provider": provider,
            "status": status,
        })
        if checked_at is not UNSET:
            field_dict["checked_at"] = checked_at
        if evidence_hash is not UNSET:
            field_dict["evidence_hash"] = evidence_hash
        if evidence_url is not UNSET:
            field_dict["evidence_url"] = evidence_url
        if note is not UNSET:
            field_dict["note"] = note
        if score is not UNSET:
            field_dict["score"] = score

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agent_id"))




        provider = VerificationProvider(d.pop("provider"))




        status = VerificationStatus(d.pop("status"))




        def _parse_checked_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                checked_at_type_0 = datetime.datetime.fromisoformat(data)



                return checked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        checked_at = _parse_checked_at(d.pop("checked_at", UNSET))


        def _parse_evidence_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        evidence_hash = _parse_evidence_hash(d.pop("evidence_hash", UNSET))


        def _parse_evidence_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        evidence_url = _parse_evidence_url(d.pop("evidence_url", UNSET))


        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))


        def _parse_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        score = _parse_score(d.pop("score", UNSET))


        webhook_delivery = cls(
            agent_id=agent_id,
            provider=provider,
            status=status,
            checked_at=checked_at,
            evidence_hash=evidence_hash,
            evidence_url=evidence_url,
            note=note,
            score=score,
        )

        return webhook_delivery

