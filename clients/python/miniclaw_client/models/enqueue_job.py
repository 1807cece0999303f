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
  from ..models.enqueue_job_payload_type_0 import EnqueueJobPayloadType0





T = TypeVar("T", bound="EnqueueJob")



@_attrs_define
class EnqueueJob:
    """ 
        Attributes:
            kind (str): A cycle name from GET /v1/admin/cycles.
            agent_id (None | Unset | UUID):
            idempotency_key (None | str | Unset): A second enqueue with the same key returns the first job instead of adding
                one.
            max_attempts (int | None | Unset): 1–20, default 5.
            payload (EnqueueJobPayloadType0 | None | Unset):
            run_at (datetime.datetime | None | Unset): When to run; default now.
     """

    kind: str
    agent_id: None | Unset | UUID = UNSET
    idempotency_key: None | str | Unset = UNSET
    max_attempts: int | None | Unset = UNSET
    payload: EnqueueJobPayloadType0 | None | Unset = UNSET
    run_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.enqueue_job_payload_type_0 import EnqueueJobPayloadType0 # noqa: PLC0415
        kind = self.kind

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        idempotency_key: None | str | Unset
        if isinstance(self.idempotency_key, Unset):
            idempotency_key = UNSET
        else:
            idempotency_key = self.idempotency_key

        max_attempts: int | None | Unset
        if isinstance(self.max_attempts, Unset):
            max_attempts = UNSET
        else:
            max_attempts = self.max_attempts

        payload: dict[str, Any] | None | Unset
        if isinstance(self.payload, Unset):
            payload = UNSET
        elif isinstance(self.payload, EnqueueJobPayloadType0):
            payload = self.payload.to_dict()
        else:
            payload = self.payload

        run_at: None | str | Unset
        if isinstance(self.run_at, Unset):
            run_at = UNSET
        elif isinstance(self.run_at, datetime.datetime):
            run_at = self.run_at.isoformat()
        else:
            run_at = self.run_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if idempotency_key is not UNSET:
            field_dict["idempotency_key"] = idempotency_key
        if max_attempts is not UNSET:
            field_dict["max_attempts"] = max_attempts
        if payload is not UNSET:
            field_dict["payload"] = payload
        if run_at is not UNSET:
            field_dict["run_at"] = run_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.enqueue_job_payload_type_0 import EnqueueJobPayloadType0 # noqa: PLC0415
        d = dict(src_dict)
        kind = d.pop("kind")

        def _parse_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                agent_id_type_1 = UUID(data)



                return agent_id_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))


        def _parse_idempotency_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key", UNSET))


        def _parse_max_attempts(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_attempts = _parse_max_attempts(d.pop("max_attempts", UNSET))


        def _parse_payload(data: object) -> EnqueueJobPayloadType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                payload_type_0 = EnqueueJobPayloadType0.from_dict(data)



                return payload_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EnqueueJobPayloadType0 | None | Unset, data)

        payload = _parse_payload(d.pop("payload", UNSET))


        def _parse_run_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                run_at_type_0 = datetime.datetime.fromisoformat(data)



                return run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        run_at = _parse_run_at(d.pop("run_at", UNSET))


        enqueue_job = cls(
            kind=kind,
            agent_id=agent_id,
            idempotency_key=idempotency_key,
            max_attempts=max_attempts,
            payload=payload,
            run_at=run_at,
        )

        return enqueue_job

