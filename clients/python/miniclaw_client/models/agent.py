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
  from ..models.quiet_hours import QuietHours
  from ..models.verification_summary import VerificationSummary





T = TypeVar("T", bound="Agent")



@_attrs_define
class Agent:
    """ A hosted agent as stored: its settings and when they were set.

        Attributes:
            active (bool):
            connect_scopes (list[str]): The most a self-service connect may grant (owner-set; a connect asking for more is
                refused). Default: `agent:read`, `chat:read`, `chat:write`, `memories:read`.
            created_at (datetime.datetime):
            daily_token_budget (int):
            emoji (str):
            id (UUID):
            name (str):
            notification_mode (str): `instant`, `digest_only` or `smart`.
            outreach_auto_reply_confidence (float):
            outreach_enabled (bool):
            persona (str):
            proactiveness (str): `conservative`, `moderate` or `eager`.
            tier (str): `free` or `premium`.
            timezone (str): IANA timezone, e.g. `Europe/Vienna`.
            updated_at (datetime.datetime):
            verification (VerificationSummary): What the agent JSON says about verification: the providers whose latest
                record is `verified`.
            ed25519_public_key (None | str | Unset): Ed25519 public key (hex) allowed to connect.
            evm_address (None | str | Unset): Owner-held wallet allowed to connect (lower-case 0x address).
            premium_model (None | str | Unset):
            quiet_hours (None | QuietHours | Unset):
     """

    active: bool
    connect_scopes: list[str]
    created_at: datetime.datetime
    daily_token_budget: int
    emoji: str
    id: UUID
    name: str
    notification_mode: str
    outreach_auto_reply_confidence: float
    outreach_enabled: bool
    persona: str
    proactiveness: str
    tier: str
    timezone: str
    updated_at: datetime.datetime
    verification: VerificationSummary
    ed25519_public_key: None | str | Unset = UNSET
    evm_address: None | str | Unset = UNSET
    premium_model: None | str | Unset = UNSET
    quiet_hours: None | QuietHours | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.quiet_hours import QuietHours # noqa: PLC0415
        from ..models.verification_summary import VerificationSummary # noqa: PLC0415
        active = self.active

        connect_scopes = self.connect_scopes



        created_at = self.created_at.isoformat()

        daily_token_budget = self.daily_token_budget

        emoji = self.emoji

        id = str(self.id)

        name = self.name

        notification_mode = self.notification_mode

        outreach_auto_reply_confidence = self.outreach_auto_reply_confidence

        outreach_enabled = self.outreach_enabled

        persona = self.persona

        proactiveness = self.proactiveness

        tier = self.tier

        timezone = self.timezone

        updated_at = self.updated_at.isoformat()

        verification = self.verification.to_dict()

        ed25519_public_key: None | str | Unset
        if isinstance(self.ed25519_public_key, Unset):
            ed25519_public_key = UNSET
        else:
            ed25519_public_key = self.ed25519_public_key

        evm_address: None | str | Unset
        if isinstance(self.evm_address, Unset):
            evm_address = UNSET
        else:
            evm_address = self.evm_address

        premium_model: None | str | Unset
        if isinstance(self.premium_model, Unset):
            premium_model = UNSET
        else:
            premium_model = self.premium_model

        quiet_hours: dict[str, Any] | None | Unset
        if isinstance(self.quiet_hours, Unset):
            quiet_hours = UNSET
        elif isinstance(self.quiet_hours, QuietHours):
            quiet_hours = self.quiet_hours.to_dict()
        else:
            quiet_hours = self.quiet_hours


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "active": active,
            "connect_scopes": connect_scopes,
            "created_at": created_at,
            "daily_token_budget": daily_token_budget,
            "emoji": emoji,
            "id": id,
            "name": name,
            "notification_mode": notification_mode,
            "outreach_auto_reply_confidence": outreach_auto_reply_confidence,
            "outreach_enabled": outreach_enabled,
            "persona": persona,
            "proactiveness": proactiveness,
            "tier": tier,
            "timezone": timezone,
            "updated_at": updated_at,
            "verification": verification,
        })
        if ed25519_public_key is not UNSET:
            field_dict["ed25519_public_key"] = ed25519_public_key
        if evm_address is not UNSET:
            field_dict["evm_address"] = evm_address
        if premium_model is not UNSET:
            field_dict["premium_model"] = premium_model
        if quiet_hours is not UNSET:
            field_dict["quiet_hours"] = quiet_hours

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quiet_hours import QuietHours # noqa: PLC0415
        from ..models.verification_summary import VerificationSummary # noqa: PLC0415
        d = dict(src_dict)
        active = d.pop("active")

        connect_scopes = cast(list[str], d.pop("connect_scopes"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        daily_token_budget = d.pop("daily_token_budget")

        emoji = d.pop("emoji")

        id = UUID(d.pop("id"))




        name = d.pop("name")

        notification_mode = d.pop("notification_mode")

        outreach_auto_reply_confidence = d.pop("outreach_auto_reply_confidence")

        outreach_enabled = d.pop("outreach_enabled")

        persona = d.pop("persona")

        proactiveness = d.pop("proactiveness")

        tier = d.pop("tier")

        timezone = d.pop("timezone")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        verification = VerificationSummary.from_dict(d.pop("verification"))




        def _parse_ed25519_public_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ed25519_public_key = _parse_ed25519_public_key(d.pop("ed25519_public_key", UNSET))


        def _parse_evm_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        evm_address = _parse_evm_address(d.pop("evm_address", UNSET))


        def _parse_premium_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        premium_model = _parse_premium_model(d.pop("premium_model", UNSET))


        def _parse_quiet_hours(data: object) -> None | QuietHours | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quiet_hours_type_1 = QuietHours.from_dict(data)



                return quiet_hours_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuietHours | Unset, data)

        quiet_hours = _parse_quiet_hours(d.pop("quiet_hours", UNSET))


        agent = cls(
            active=active,
            connect_scopes=connect_scopes,
            created_at=created_at,
            daily_token_budget=daily_token_budget,
            emoji=emoji,
            id=id,
            name=name,
            notification_mode=notification_mode,
            outreach_auto_reply_confidence=outreach_auto_reply_confidence,
            outreach_enabled=outreach_enabled,
            persona=persona,
            proactiveness=proactiveness,
            tier=tier,
            timezone=timezone,
            updated_at=updated_at,
            verification=verification,
            ed25519_public_key=ed25519_public_key,
            evm_address=evm_address,
            premium_model=premium_model,
            quiet_hours=quiet_hours,
        )


        agent.additional_properties = d
        return agent

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
