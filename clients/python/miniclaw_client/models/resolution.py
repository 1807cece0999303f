from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.outcome import Outcome
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="Resolution")



@_attrs_define
class Resolution:
    """ 
        Attributes:
            note (str): What happened, at most 2,000 characters.
            outcome (Outcome): How a stake ends.
            agent_id (None | Unset | UUID):
            stake_id (None | Unset | UUID): One stake; or every active stake behind `agent_id` (on `topic` when given).
            topic (None | str | Unset):
     """

    note: str
    outcome: Outcome
    agent_id: None | Unset | UUID = UNSET
    stake_id: None | Unset | UUID = UNSET
    topic: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        note = self.note

        outcome = self.outcome.value

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        stake_id: None | str | Unset
        if isinstance(self.stake_id, Unset):
            stake_id = UNSET
        elif isinstance(self.stake_id, UUID):
            stake_id = str(self.stake_id)
        else:
            stake_id = self.stake_id

        topic: None | str | Unset
        if isinstance(self.topic, Unset):
            topic = UNSET
        else:
            topic = self.topic


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "note": note,
            "outcome": outcome,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if stake_id is not UNSET:
            field_dict["stake_id"] = stake_id
        if topic is not UNSET:
            field_dict["topic"] = topic

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        note = d.pop("note")

        outcome = Outcome(d.pop("outcome"))




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


        def _parse_stake_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                stake_id_type_0 = UUID(data)



                return stake_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        stake_id = _parse_stake_id(d.pop("stake_id", UNSET))


        def _parse_topic(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        topic = _parse_topic(d.pop("topic", UNSET))


        resolution = cls(
            note=note,
            outcome=outcome,
            agent_id=agent_id,
            stake_id=stake_id,
            topic=topic,
        )

        return resolution

