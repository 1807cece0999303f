from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.payer import Payer
from ..models.rail import Rail
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="TipRequest")



@_attrs_define
class TipRequest:
    """ 
        Attributes:
            amount (str): Credits (a whole number), wei, or base units of the agent's token, as a decimal string, e.g.
                `"5"`.
            from_ (Payer): Who pays.
            idempotency_key (str): Unique per tip from this payer: a retry with the same key returns the same tip.
            memo (None | str | Unset): At most 500 characters.
            rail (Rail | Unset): What moves.
            to_agent_id (None | Unset | UUID):
     """

    amount: str
    from_: Payer
    idempotency_key: str
    memo: None | str | Unset = UNSET
    rail: Rail | Unset = UNSET
    to_agent_id: None | Unset | UUID = UNSET





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        from_ = self.from_.value

        idempotency_key = self.idempotency_key

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        rail: str | Unset = UNSET
        if not isinstance(self.rail, Unset):
            rail = self.rail.value


        to_agent_id: None | str | Unset
        if isinstance(self.to_agent_id, Unset):
            to_agent_id = UNSET
        elif isinstance(self.to_agent_id, UUID):
            to_agent_id = str(self.to_agent_id)
        else:
            to_agent_id = self.to_agent_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "amount": amount,
            "from": from_,
            "idempotency_key": idempotency_key,
        })
        if memo is not UNSET:
            field_dict["memo"] = memo
        if rail is not UNSET:
            field_dict["rail"] = rail
        if to_agent_id is not UNSET:
            field_dict["to_agent_id"] = to_agent_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        from_ = Payer(d.pop("from"))




        idempotency_key = d.pop("idempotency_key")

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))


        _rail = d.pop("rail", UNSET)
        rail: Rail | Unset
        if isinstance(_rail,  Unset):
            rail = UNSET
        else:
            rail = Rail(_rail)




        def _parse_to_agent_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_agent_id_type_1 = UUID(data)



                return to_agent_id_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        to_agent_id = _parse_to_agent_id(d.pop("to_agent_id", UNSET))


        tip_request = cls(
            amount=amount,
            from_=from_,
            idempotency_key=idempotency_key,
            memo=memo,
            rail=rail,
            to_agent_id=to_agent_id,
        )

        return tip_request

