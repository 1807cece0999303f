from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ConnectInput")



@_attrs_define
class ConnectInput:
    """ The bot token to connect with.

        Attributes:
            bot_token (str): The token @BotFather gave (`123456:ABC…`).
     """

    bot_token: str





    def to_dict(self) -> dict[str, Any]:
        bot_token = self.bot_token


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "bot_token": bot_token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bot_token = d.pop("bot_token")

        connect_input = cls(
            bot_token=bot_token,
        )

        return connect_input

