from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.asset import Asset
from ..models.payer import Payer
from ..models.target_kind import TargetKind
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="StakeRequest")



@_attrs_define
class StakeRequest:
    """ 
        Attributes:
            amount (int): Credits, or (`asset: token`) whole tokens, to stake.
            from_ (Payer): Who pays.
            idempotency_key (str):
            target (TargetKind): What a stake backs.
            topic (str): The signal pool: 1–40 lower-case letters, digits and dashes, e.g. `research`.
            agent_id (None | Unset | UUID):
            asset (Asset | Unset): What is staked.
            skill (None | str | Unset): The skill backed (`target: skill`), by its marketplace name.
     """

    amount: int
    from_: Payer
    idempotency_key: str
    target: TargetKind
    topic: str
    agent_id: None | Unset | UUID = UNSET
    asset: Asset | Unset = UNSET
    skill: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        from_ = self.from_.value

        idempotency_key = self.idempotency_key

        target = self.target.value

        topic = self.topic

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        elif isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        asset: str | Unset = UNSET
        if not isinstance(self.asset, Unset):
            asset = self.asset.value


        skill: None | str | Unset
        if isinstance(self.skill, Unset):
            skill = UNSET
        else:
            skill = self.skill


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "amount": amount,
            "from": from_,
            "idempotency_key": idempotency_key,
            "target": target,
            "topic": topic,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if asset is not UNSET:
            field_dict["asset"] = asset
        if skill is not UNSET:
            field_dict["skill"] = skill

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        from_ = Payer(d.pop("from"))




        idempotency_key = d.pop("idempotency_key")

        target = TargetKind(d.pop("target"))




        topic = d.pop("topic")

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


        _asset = d.pop("asset", UNSET)
        asset: Asset | Unset
        if isinstance(_asset,  Unset):
            asset = UNSET
        else:
            asset = Asset(_asset)




        def _parse_skill(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        skill = _parse_skill(d.pop("skill", UNSET))


        stake_request = cls(
            amount=amount,
            from_=from_,
            idempotency_key=idempotency_key,
            target=target,
            topic=topic,
            agent_id=agent_id,
            asset=asset,
            skill=skill,
        )

        return stake_request

