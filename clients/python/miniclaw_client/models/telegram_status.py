from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TelegramStatus")



@_attrs_define
class TelegramStatus:
    """ The agent's bot, as the owner sees it (never the token).

        Attributes:
            connected (bool):
            owner_linked (bool):
            bot_username (None | str | Unset):
            link_code (None | str | Unset): Send `/start <link_code>` to the bot from your own Telegram to receive
                notifications there.
            webhook_url (None | str | Unset): Where Telegram delivers the bot's updates.
     """

    connected: bool
    owner_linked: bool
    bot_username: None | str | Unset = UNSET
    link_code: None | str | Unset = UNSET
    webhook_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        connected = self.connected

        owner_linked = self.owner_linked

        bot_username: None | str | Unset
        if isinstance(self.bot_username, Unset):
            bot_username = UNSET
        else:
            bot_username = self.bot_username

        link_code: None | str | Unset
        if isinstance(self.link_code, Unset):
            link_code = UNSET
        else:
            link_code = self.link_code

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "connected": connected,
            "owner_linked": owner_linked,
        })
        if bot_username is not UNSET:
            field_dict["bot_username"] = bot_username
        if link_code is not UNSET:
            field_dict["link_code"] = link_code
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        connected = d.pop("connected")

        owner_linked = d.pop("owner_linked")

        def _parse_bot_username(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bot_username = _parse_bot_username(d.pop("bot_username", UNSET))


        def _parse_link_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        link_code = _parse_link_code(d.pop("link_code", UNSET))


        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))


        telegram_status = cls(
            connected=connected,
            owner_linked=owner_linked,
            bot_username=bot_username,
            link_code=link_code,
            webhook_url=webhook_url,
        )


        telegram_status.additional_properties = d
        return telegram_status

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
