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






T = TypeVar("T", bound="VerificationRecord")



@_attrs_define
class VerificationRecord:
    """ A verification result as stored.

        Attributes:
            agent_id (UUID):
            checked_at (datetime.datetime): When the provider reached the result.
            created_at (datetime.datetime):
            id (UUID):
            provider (VerificationProvider): A human-verification provider (SPEC I3): Self.xyz (zero-knowledge passport
                proof) or
                Talent Protocol (builder credentials and score).
            recorded_by (str): `operator` or `webhook`.
            status (VerificationStatus): The outcome of a human verification (SPEC I3).
            evidence_hash (None | str | Unset): A hash of the evidence (a proof, a credential), as the provider gave it.
            evidence_url (None | str | Unset):
            note (None | str | Unset):
            score (float | None | Unset): The provider's own score, when it gives one (Talent Protocol's builder score).
     """

    agent_id: UUID
    checked_at: datetime.datetime
    created_at: datetime.datetime
    id: UUID
    provider: VerificationProvider
    recorded_by: str
    status: VerificationStatus
    evidence_hash: None | str | Unset = UNSET
    evidence_url: None | str | Unset = UNSET
    note: None | str | Unset = UNSET
    score: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        checked_at = self.checked_at.isoformat()

        created_at = self.created_at.isoformat()

        id = str(self.id)

        provider = self.provider.value

        recorded_by = self.recorded_by

        status = self.status.value

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
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "checked_at": checked_at,
            "created_at": created_at,
            "id": id,
            "provider": provider,
            "recorded_by": recorded_by,
            "status": status,
        })
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




        checked_at = datetime.datetime.fromisoformat(d.pop("checked_at"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        provider = VerificationProvider(d.pop("provider"))




        recorded_by = d.pop("recorded_by")

        status = VerificationStatus(d.pop("status"))




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


        verification_record = cls(
            agent_id=agent_id,
            checked_at=checked_at,
            created_at=created_at,
            id=id,
            provider=provider,
            recorded_by=recorded_by,
            status=status,
            evidence_hash=evidence_hash,
            evidence_url=evidence_url,
            note=note,
            score=score,
        )


        verification_record.additional_properties = d
        return verification_record

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
