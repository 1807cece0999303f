from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.reflection_trigger import ReflectionTrigger
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.reflection_actions_item import ReflectionActionsItem
  from ..models.reflection_calibration_type_0 import ReflectionCalibrationType0
  from ..models.reflection_soul_type_0 import ReflectionSoulType0





T = TypeVar("T", bound="Reflection")



@_attrs_define
class Reflection:
    """ 
        Attributes:
            actions (list[ReflectionActionsItem]):
            created_at (datetime.datetime):
            id (UUID):
            status (str): applied, rejected (invalid output, nothing applied), failed (the model call failed)
            tasks (int):
            trigger (ReflectionTrigger): What started a deep reflection (SPEC C2).
            calibration (None | ReflectionCalibrationType0 | Unset):
            clarity (int | None | Unset):
            engine (None | str | Unset):
            error (None | str | Unset):
            model (None | str | Unset):
            soul (None | ReflectionSoulType0 | Unset): The soul rewrite's fate, when one was proposed.
     """

    actions: list[ReflectionActionsItem]
    created_at: datetime.datetime
    id: UUID
    status: str
    tasks: int
    trigger: ReflectionTrigger
    calibration: None | ReflectionCalibrationType0 | Unset = UNSET
    clarity: int | None | Unset = UNSET
    engine: None | str | Unset = UNSET
    error: None | str | Unset = UNSET
    model: None | str | Unset = UNSET
    soul: None | ReflectionSoulType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.reflection_actions_item import ReflectionActionsItem # noqa: PLC0415
        from ..models.reflection_calibration_type_0 import ReflectionCalibrationType0 # noqa: PLC0415
        from ..models.reflection_soul_type_0 import ReflectionSoulType0 # noqa: PLC0415
        actions = []
        for actions_item_data in self.actions:
            actions_item = actions_item_data.to_dict()
            actions.append(actions_item)



        created_at = self.created_at.isoformat()

        id = str(self.id)

        status = self.status

        tasks = self.tasks

        trigger = self.trigger.value

        calibration: dict[str, Any] | None | Unset
        if isinstance(self.calibration, Unset):
            calibration = UNSET
        elif isinstance(self.calibration, ReflectionCalibrationType0):
            calibration = self.calibration.to_dict()
        else:
            calibration = self.calibration

        clarity: int | None | Unset
        if isinstance(self.clarity, Unset):
            clarity = UNSET
        else:
            clarity = self.clarity

        engine: None | str | Unset
        if isinstance(self.engine, Unset):
            engine = UNSET
        else:
            engine = self.engine

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        soul: dict[str, Any] | None | Unset
        if isinstance(self.soul, Unset):
            soul = UNSET
        elif isinstance(self.soul, ReflectionSoulType0):
            soul = self.soul.to_dict()
        else:
            soul = self.soul


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "actions": actions,
            "created_at": created_at,
            "id": id,
            "status": status,
            "tasks": tasks,
            "trigger": trigger,
        })
        if calibration is not UNSET:
            field_dict["calibration"] = calibration
        if clarity is not UNSET:
            field_dict["clarity"] = clarity
        if engine is not UNSET:
            field_dict["engine"] = engine
        if error is not UNSET:
            field_dict["error"] = error
        if model is not UNSET:
            field_dict["model"] = model
        if soul is not UNSET:
            field_dict["soul"] = soul

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reflection_actions_item import ReflectionActionsItem # noqa: PLC0415
        from ..models.reflection_calibration_type_0 import ReflectionCalibrationType0 # noqa: PLC0415
        from ..models.reflection_soul_type_0 import ReflectionSoulType0 # noqa: PLC0415
        d = dict(src_dict)
        actions = []
        _actions = d.pop("actions")
        for actions_item_data in (_actions):
            actions_item = ReflectionActionsItem.from_dict(actions_item_data)



            actions.append(actions_item)


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        status = d.pop("status")

        tasks = d.pop("tasks")

        trigger = ReflectionTrigger(d.pop("trigger"))




        def _parse_calibration(data: object) -> None | ReflectionCalibrationType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calibration_type_0 = ReflectionCalibrationType0.from_dict(data)



                return calibration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReflectionCalibrationType0 | Unset, data)

        calibration = _parse_calibration(d.pop("calibration", UNSET))


        def _parse_clarity(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        clarity = _parse_clarity(d.pop("clarity", UNSET))


        def _parse_engine(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        engine = _parse_engine(d.pop("engine", UNSET))


        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))


        def _parse_soul(data: object) -> None | ReflectionSoulType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                soul_type_0 = ReflectionSoulType0.from_dict(data)



                return soul_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReflectionSoulType0 | Unset, data)

        soul = _parse_soul(d.pop("soul", UNSET))


        reflection = cls(
            actions=actions,
            created_at=created_at,
            id=id,
            status=status,
            tasks=tasks,
            trigger=trigger,
            calibration=calibration,
            clarity=clarity,
            engine=engine,
            error=error,
            model=model,
            soul=soul,
        )


        reflection.additional_properties = d
        return reflection

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
