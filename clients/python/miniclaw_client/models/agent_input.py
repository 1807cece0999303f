from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.quiet_hours import QuietHours





T = TypeVar("T", bound="AgentInput")



@_attrs_define
class AgentInput:
    """ Settings to create an agent with, or to change (PATCH: absent fields stay as they are;
    `null` clears a nullable one).

        Attributes:
            active (bool | None | Unset):
            connect_scopes (list[str] | None | Unset): The most a self-service connect may grant. Owner only.
            daily_token_budget (int | None | Unset):
            ed25519_public_key (None | str | Unset):
            emoji (None | str | Unset):
            evm_address (None | str | Unset):
            name (None | str | Unset):
            notification_mode (None | str | Unset):
            outreach_auto_reply_confidence (float | None | Unset):
            outreach_enabled (bool | None | Unset):
            persona (None | str | Unset):
            premium_model (None | str | Unset):
            proactiveness (None | str | Unset):
            quiet_hours (None | QuietHours | Unset):
            tier (None | str | Unset):
            timezone (None | str | Unset):
     """

    active: bool | None | Unset = UNSET
    connect_scopes: list[str] | None | Unset = UNSET
    daily_token_budget: int | None | Unset = UNSET
    ed25519_public_key: None | str | Unset = UNSET
    emoji: None | str | Unset = UNSET
    evm_address: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    notification_mode: None | str | Unset = UNSET
    outreach_auto_reply_confidence: float | None | Unset = UNSET
    outreach_enabled: bool | None | Unset = UNSET
    persona: None | str | Unset = UNSET
    premium_model: None | str | Unset = UNSET
    proactiveness: None | str | Unset = UNSET
    quiet_hours: None | QuietHours | Unset = UNSET
    tier: None | str | Unset = UNSET
    timezone: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.quiet_hours import QuietHours # noqa: PLC0415
        active: bool | None | Unset
        if isinstance(self.active, Unset):
            active = UNSET
        else:
            active = self.active

        connect_scopes: list[str] | None | Unset
        if isinstance(self.connect_scopes, Unset):
            connect_scopes = UNSET
        elif isinstance(self.connect_scopes, list):
            connect_scopes = self.connect_scopes


        else:
            connect_scopes = self.connect_scopes

        daily_token_budget: int | None | Unset
        if isinstance(self.daily_token_budget, Unset):
            daily_token_budget = UNSET
        else:
            daily_token_budget = self.daily_token_budget

        ed25519_public_key: None | str | Unset
        if isinstance(self.ed25519_public_key, Unset):
            ed25519_public_key = UNSET
        else:
            ed25519_public_key = self.ed25519_public_key

        emoji: None | str | Unset
        if isinstance(self.emoji, Unset):
            emoji = UNSET
        else:
            emoji = self.emoji

        evm_address: None | str | Unset
        if isinstance(self.evm_address, Unset):
            evm_address = UNSET
        else:
            evm_address = self.evm_address

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        notification_mode: None | str | Unset
        if isinstance(self.notification_mode, Unset):
            notification_mode = UNSET
        else:
            notification_mode = self.notification_mode

        outreach_auto_reply_confidence: float | None | Unset
        if isinstance(self.outreach_auto_reply_confidence, Unset):
            outreach_auto_reply_confidence = UNSET
        else:
            outreach_auto_reply_confidence = self.outreach_auto_reply_confidence

        outreach_enabled: bool | None | Unset
        if isinstance(self.outreach_enabled, Unset):
            outreach_enabled = UNSET
        else:
            outreach_enabled = self.outreach_enabled

        persona: None | str | Unset
        if isinstance(self.persona, Unset):
            persona = UNSET
        else:
            persona = self.persona

        premium_model: None | str | Unset
        if isinstance(self.premium_model, Unset):
            premium_model = UNSET
        else:
            premium_model = self.premium_model

        proactiveness: None | str | Unset
        if isinstance(self.proactiveness, Unset):
            proactiveness = UNSET
        else:
            proactiveness = self.proactiveness

        quiet_hours: dict[str, Any] | None | Unset
        if isinstance(self.quiet_hours, Unset):
            quiet_hours = UNSET
        elif isinstance(self.quiet_hours, QuietHours):
            quiet_hours = self.quiet_hours.to_dict()
        else:
            quiet_hours = self.quiet_hours

        tier: None | str | Unset
        if isinstance(self.tier, Unset):
            tier = UNSET
        else:
            tier = self.tier

        timezone: None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if active is not UNSET:
            field_dict["active"] = active
        if connect_scopes is not UNSET:
            field_dict["connect_scopes"] = connect_scopes
        if daily_token_budget is not UNSET:
            field_dict["daily_token_budget"] = daily_token_budget
        if ed25519_public_key is not UNSET:
            field_dict["ed25519_public_key"] = ed25519_public_key
        if emoji is not UNSET:
            field_dict["emoji"] = emoji
        if evm_address is not UNSET:
            field_dict["evm_address"] = evm_address
        if name is not UNSET:
            field_dict["name"] = name
        if notification_mode is not UNSET:
            field_dict["notification_mode"] = notification_mode
        if outreach_auto_reply_confidence is not UNSET:
            field_dict["outreach_auto_reply_confidence"] = outreach_auto_reply_confidence
        if outreach_enabled is not UNSET:
            field_dict["outreach_enabled"] = outreach_enabled
        if persona is not UNSET:
            field_dict["persona"] = persona
        if premium_model is not UNSET:
            field_dict["premium_model"] = premium_model
        if proactiveness is not UNSET:
            field_dict["proactiveness"] = proactiveness
        if quiet_hours is not UNSET:
            field_dict["quiet_hours"] = quiet_hours
        if tier is not UNSET:
            field_dict["tier"] = tier
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quiet_hours import QuietHours # noqa: PLC0415
        d = dict(src_dict)
        def _parse_active(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        active = _parse_active(d.pop("active", UNSET))


        def _parse_connect_scopes(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                connect_scopes_type_0 = cast(list[str], data)

                return connect_scopes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        connect_scopes = _parse_connect_scopes(d.pop("connect_scopes", UNSET))


        def _parse_daily_token_budget(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        daily_token_budget = _parse_daily_token_budget(d.pop("daily_token_budget", UNSET))


        def _parse_ed25519_public_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ed25519_public_key = _parse_ed25519_public_key(d.pop("ed25519_public_key", UNSET))


        def _parse_emoji(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emoji = _parse_emoji(d.pop("emoji", UNSET))


        def _parse_evm_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        evm_address = _parse_evm_address(d.pop("evm_address", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_notification_mode(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notification_mode = _parse_notification_mode(d.pop("notification_mode", UNSET))


        def _parse_outreach_auto_reply_confidence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        outreach_auto_reply_confidence = _parse_outreach_auto_reply_confidence(d.pop("outreach_auto_reply_confidence", UNSET))


        def _parse_outreach_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        outreach_enabled = _parse_outreach_enabled(d.pop("outreach_enabled", UNSET))


        def _parse_persona(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        persona = _parse_persona(d.pop("persona", UNSET))


        def _parse_premium_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        premium_model = _parse_premium_model(d.pop("premium_model", UNSET))


        def _parse_proactiveness(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        proactiveness = _parse_proactiveness(d.pop("proactiveness", UNSET))


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


        def _parse_tier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tier = _parse_tier(d.pop("tier", UNSET))


        def _parse_timezone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))


        agent_input = cls(
            active=active,
            connect_scopes=connect_scopes,
            daily_token_budget=daily_token_budget,
            ed25519_public_key=ed25519_public_key,
            emoji=emoji,
            evm_address=evm_address,
            name=name,
            notification_mode=notification_mode,
            outreach_auto_reply_confidence=outreach_auto_reply_confidence,
            outreach_enabled=outreach_enabled,
            persona=persona,
            premium_model=premium_model,
            proactiveness=proactiveness,
            quiet_hours=quiet_hours,
            tier=tier,
            timezone=timezone,
        )

        return agent_input

