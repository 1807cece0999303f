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
import datetime






T = TypeVar("T", bound="VerificationInput")



@_attrs_define
class VerificationInput:
    """ A verification result to record.

        Attributes:
            provider (VerificationProvider): A human-verification provider (SPEC I3): Self.xyz (zero-knowledge passport
                proof) or
                Talent Protocol (builder credentials and score).
            status (VerificationStatus): The outcome of a human verification (SPEC I3).
            checked_at (datetime.datetime | None | Unset): When the provider reached the result; default now; from 2000 on,
                at most 5 minutes ahead.
            evidence_hash (None | str | Unset): Up to 200 visible ASCII characters, e.g. `0x…` or `sha256:…`.
            evidence_url (None | str | Unset): `http(s)` link to the evidence. A `verified` result needs this or
                `evidence_hash`.
            note (None | str | Unset): Up to 1,000 characters.
            score (float | None | Unset): 0–10,000.
     """

    provider: VerificationProvider
    status: VerificationStatus
    checked_at: datetime.datetime | None | Unset = UNSET
    evidence_hash: None | str | Unset = UNSET
    evidence_url: None | str | Unset = UNSET
    note: None | str | Unset = UNSET
    score: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
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


        verification_input = cls(
            provider=provider,
            status=status,
            checked_at=checked_at,
            evidence_hash=evidence_hash,
            evidence_url=evidence_url,
            note=note,
            score=score,
        )

        return verification_input

