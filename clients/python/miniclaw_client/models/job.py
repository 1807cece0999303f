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
  from ..models.job_payload import JobPayload
  from ..models.job_result_type_0 import JobResultType0





T = TypeVar("T", bound="Job")



@_attrs_define
class Job:
    """ A job as stored. `last_error` keeps the failure text verbatim.

        Attributes:
            attempts (int):
            created_at (datetime.datetime):
            id (UUID):
            kind (str):
            max_attempts (int):
            payload (JobPayload):
            run_at (datetime.datetime):
            status (str): `queued`, `running`, `done` or `dead`.
            agent_id (None | Unset | UUID):
            finished_at (datetime.datetime | None | Unset):
            idempotency_key (None | str | Unset):
            last_error (None | str | Unset):
            locked_by (None | str | Unset): The worker holding the lease, or the last one that ran the job.
            locked_until (datetime.datetime | None | Unset):
            result (JobResultType0 | None | Unset):
            started_at (datetime.datetime | None | Unset):
     """

    attempts: int
    created_at: datetime.datetime
    id: UUID
    kind: str
    max_attempts: int
    payload: JobPayload
    run_at: datetime.datetime
    status: str
    agent_id: None | Unset | UUID = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    idempotency_key: None | str | Unset = UNSET
    last_error: None | str | Unset = UNSET
    locked_by: None | str | Unset = UNSET
    locked_until: datetime.datetime | None | Unset = UNSET
    result: JobResultType0 | None | Unset = UNSET
    started_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.job_payload import JobPayload # noqa: PLC0415
        from ..models.job_result_type_0 import JobResultType0 # noqa: PLC0415
        attempts = self.attempts

        created_at = self.created_at.isoformat()

        id = str(self.id)

        kind = self.kind

        max_attempts = self.max_attempts

        payload = self.payload.to_dict()

        run_at = self.run_at.isoformat()

        status = self.status

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        idempotency_key: None | str | Unset
        if isinstance(self.idempotency_key, Unset):
            idempotency_key = UNSET
        else:
            idempotency_key = self.idempotency_key

        last_error: None | str | Unset
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error

        locked_by: None | str | Unset
        if isinstance(self.locked_by, Unset):
            locked_by = UNSET
        else:
            locked_by = self.locked_by

        locked_until: None | str | Unset
        if isinstance(self.locked_until, Unset):
            locked_until = UNSET
        elif isinstance(self.locked_until, datetime.datetime):
            locked_until = self.locked_until.isoformat()
        else:
            locked_until = self.locked_until

        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, JobResultType0):
            result = self.result.to_dict()
        else:
            result = self.result

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        elif isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempts": attempts,
            "created_at": created_at,
            "id": id,
            "kind": kind,
            "max_attempts": max_attempts,
            "payload": payload,
            "run_at": run_at,
            "status": status,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if idempotency_key is not UNSET:
            field_dict["idempotency_key"] = idempotency_key
        if last_error is not UNSET:
            field_dict["last_error"] = last_error
        if locked_by is not UNSET:
            field_dict["locked_by"] = locked_by
        if locked_until is not UNSET:
            field_dict["locked_until"] = locked_until
        if result is not UNSET:
            field_dict["result"] = result
        if started_at is not UNSET:
            field_dict["started_at"] = started_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_payload import JobPayload # noqa: PLC0415
        from ..models.job_result_type_0 import JobResultType0 # noqa: PLC0415
        d = dict(src_dict)
        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        kind = d.pop("kind")

        max_attempts = d.pop("max_attempts")

        payload = JobPayload.from_dict(d.pop("payload"))




        run_at = datetime.datetime.fromisoformat(d.pop("run_at"))




        status = d.pop("status")

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


        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)



                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))


        def _parse_idempotency_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key", UNSET))


        def _parse_last_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_error = _parse_last_error(d.pop("last_error", UNSET))


        def _parse_locked_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        locked_by = _parse_locked_by(d.pop("locked_by", UNSET))


        def _parse_locked_until(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                locked_until_type_0 = datetime.datetime.fromisoformat(data)



                return locked_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        locked_until = _parse_locked_until(d.pop("locked_until", UNSET))


        def _parse_result(data: object) -> JobResultType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = JobResultType0.from_dict(data)



                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobResultType0 | None | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        def _parse_started_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)



                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        started_at = _parse_started_at(d.pop("started_at", UNSET))


        job = cls(
            attempts=attempts,
            created_at=created_at,
            id=id,
            kind=kind,
            max_attempts=max_attempts,
            payload=payload,
            run_at=run_at,
            status=status,
            agent_id=agent_id,
            finished_at=finished_at,
            idempotency_key=idempotency_key,
            last_error=last_error,
            locked_by=locked_by,
            locked_until=locked_until,
            result=result,
            started_at=started_at,
        )


        job.additional_properties = d
        return job

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
