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






T = TypeVar("T", bound="Stake")



@_attrs_define
class Stake:
    """ A stake and its conviction now.

        Attributes:
            amount (int): Credits, or whole tokens.
            asset (str): `credits` or `token` (the staking agent's own).
            conviction (float): Of an active stake; 0 once it is resolved or withdrawn.
            created_at (datetime.datetime):
            id (UUID):
            status (str): `active`, `validated`, `slashed` or `withdrawn`; a token stake is `pending` until its
                transfer to the custodian is mined, `failed` if it was not.
            target_agent_id (UUID): The agent backed (for a skill, its publisher).
            target_kind (str): `agent` or `skill`.
            topic (str):
            outcome (None | str | Unset):
            payout (None | str | Unset): Token stakes: the status of the transfer that returned or slashed the tokens.
            resolved_at (datetime.datetime | None | Unset):
            staker_agent_id (None | Unset | UUID): The staking agent; `null` when its owner staked.
            target_skill_id (None | Unset | UUID):
            units (None | str | Unset): Token stakes: the base units held.
     """

    amount: int
    asset: str
    conviction: float
    created_at: datetime.datetime
    id: UUID
    status: str
    target_agent_id: UUID
    target_kind: str
    topic: str
    outcome: None | str | Unset = UNSET
    payout: None | str | Unset = UNSET
    resolved_at: datetime.datetime | None | Unset = UNSET
    staker_agent_id: None | Unset | UUID = UNSET
    target_skill_id: None | Unset | UUID = UNSET
    units: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        asset = self.asset

        conviction = self.conviction

        created_at = self.created_at.isoformat()

        id = str(self.id)

        status = self.status

        target_agent_id = str(self.target_agent_id)

        target_kind = self.target_kind

        topic = self.topic

        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        else:
            outcome = self.outcome

        payout: None | str | Unset
        if isinstance(self.payout, Unset):
            payout = UNSET
        else:
            payout = self.payout

        resolved_at: None | str | Unset
        if isinstance(self.resolved_at, Unset):
            resolved_at = UNSET
        elif isinstance(self.resolved_at, datetime.datetime):
            resolved_at = self.resolved_at.isoformat()
        else:
            resolved_at = self.resolved_at

        staker_agent_id: None | str | Unset
        if isinstance(self.staker_agent_id, Unset):
            staker_agent_id = UNSET
        elif isinstance(self.staker_agent_id, UUID):
            staker_agent_id = str(self.staker_agent_id)
        else:
            staker_agent_id = self.staker_agent_id

        target_skill_id: None | str | Unset
        if isinstance(self.target_skill_id, Unset):
            target_skill_id = UNSET
        elif isinstance(self.target_skill_id, UUID):
            target_skill_id = str(self.target_skill_id)
        else:
            target_skill_id = self.target_skill_id

        units: None | str | Unset
        if isinstance(self.units, Unset):
            units = UNSET
        else:
            units = self.units


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "amount": amount,
            "asset": asset,
            "conviction": conviction,
            "created_at": created_at,
            "id": id,
            "status": status,
            "target_agent_id": target_agent_id,
            "target_kind": target_kind,
            "topic": topic,
        })
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if payout is not UNSET:
            field_dict["payout"] = payout
        if resolved_at is not UNSET:
            field_dict["resolved_at"] = resolved_at
        if staker_agent_id is not UNSET:
            field_dict["staker_agent_id"] = staker_agent_id
        if target_skill_id is not UNSET:
            field_dict["target_skill_id"] = target_skill_id
        if units is not UNSET:
            field_dict["units"] = units

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        asset = d.pop("asset")

        conviction = d.pop("conviction")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        status = d.pop("status")

        target_agent_id = UUID(d.pop("target_agent_id"))




        target_kind = d.pop("target_kind")

        topic = d.pop("topic")

        def _parse_outcome(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))


        def _parse_payout(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        payout = _parse_payout(d.pop("payout", UNSET))


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


        def _parse_staker_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                staker_agent_id_type_0 = UUID(data)



                return staker_agent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        staker_agent_id = _parse_staker_agent_id(d.pop("staker_agent_id", UNSET))


        def _parse_target_skill_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                target_skill_id_type_0 = UUID(data)



                return target_skill_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        target_skill_id = _parse_target_skill_id(d.pop("target_skill_id", UNSET))


        def _parse_units(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        units = _parse_units(d.pop("units", UNSET))


        stake = cls(
            amount=amount,
            asset=asset,
            conviction=conviction,
            created_at=created_at,
            id=id,
            status=status,
            target_agent_id=target_agent_id,
            target_kind=target_kind,
            topic=topic,
            outcome=outcome,
            payout=payout,
            resolved_at=resolved_at,
            staker_agent_id=staker_agent_id,
            target_skill_id=target_skill_id,
            units=units,
        )


        stake.additional_properties = d
        return stake

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
