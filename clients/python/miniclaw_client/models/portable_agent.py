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





T = TypeVar("T", bound="PortableAgent")



@_attrs_define
class PortableAgent:
    """ The agent's settings (the owner's connection keys and identity stay behind).

        Attributes:
            name (str):
            daily_token_budget (int | None | Unset):
            emoji (None | str | Unset):
            notification_mode (None | str | Unset):
            outreach_auto_reply_confidence (float | None | Unset):
            outreach_enabled (bool | None | Unset):
            persona (str | Unset):
            premium_model (None | str | Unset):
            proactiveness (None | str | Unset):
            quiet_hours (None | QuietHours | Unset):
            tier (None | str | Unset):
            timezone (None | str | Unset):
     """

    name: str
    daily_token_budget: int | None | Unset = UNSET
    emoji: None | str | Unset = UNSET
    notification_mode: None | str | Unset = UNSET
    outreach_auto_reply_confidence: float | None | Unset = UNSET
    outreach_enabled: bool | None | Unset = UNSET
    persona: str | Unset = UNSET
    premium_model: None | str | Unset = UNSET
    proactiveness: None | str | Unset = UNSET
    quiet_hours: None | QuietHours | Unset = UNSET
    tier: None | str | Unset = UNSET
    timezone: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.quiet_hours import QuietHours # noqa: PLC0415
        name = self.name

        daily_token_budget: int | None | Unset
        if isinstance(self.daily_token_budget, Unset):
            daily_token_budget = UNSET
        else:
            daily_token_budget = self.daily_token_budget

        emoji: None | str | Unset
        if isinstance(self.emoji, Unset):
            emoji = UNSET
        else:
            emoji = self.emoji

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
            "name": name,
        })
        if daily_token_budget is not UNSET:
            field_dict["daily_token_budget"] = daily_token_budget
        if emoji is not UNSET:
            field_dict["emoji"] = emoji
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
        name = d.pop("name")

        def _parse_daily_token_budget(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        daily_token_budget = _parse_daily_token_budget(d.pop("daily_token_budget", UNSET))


        def _parse_emoji(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emoji = _parse_emoji(d.pop("emoji", UNSET))


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


        persona = d.pop("persona", UNSET)

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


        portable_agent = cls(
            name=name,
            daily_token_budget=daily_token_budget,
            emoji=emoji,
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

        return portable_agent

