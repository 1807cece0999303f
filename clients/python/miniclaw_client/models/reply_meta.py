from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.reply_meta_memories_used_item import ReplyMetaMemoriesUsedItem
  from ..models.reply_meta_searched import ReplyMetaSearched
  from ..models.reply_meta_tool_calls_item import ReplyMetaToolCallsItem
  from ..models.timings import Timings
  from ..models.trace import Trace
  from ..models.usage import Usage





T = TypeVar("T", bound="ReplyMeta")



@_attrs_define
class ReplyMeta:
    """ The final metadata of a reply: what the JSON answer and the SSE `done` event carry, and what
    the reply row keeps in `meta` (read back by the dashboard).

        Attributes:
            channel (str):
            conversation_id (UUID):
            engine (str): `model` or `offline`.
            finish_reason (str):
            intent (str):
            memories_used (list[ReplyMetaMemoriesUsedItem]):
            message_id (UUID):
            model (str):
            provider (str):
            response_style (str):
            searched (ReplyMetaSearched):
            timings (Timings): Milliseconds per stage of a turn (the model's own time is in `generation_ms`).
            triage_skipped (bool):
            usage (Usage):
            user_message_id (UUID):
            skip_reason (None | str | Unset): `trivial`, `tool_keyword`, `brief` when the pre-filter decided.
            tool_calls (list[ReplyMetaToolCallsItem] | Unset): The client's functions the model called (`ClientTools`); the
                reply's text may then be
                empty. `finish_reason` is `tool_calls`.
            traversal (None | Trace | Unset):
            triage_error (None | str | Unset): Why triage fell back to its fail-open defaults.
     """

    channel: str
    conversation_id: UUID
    engine: str
    finish_reason: str
    intent: str
    memories_used: list[ReplyMetaMemoriesUsedItem]
    message_id: UUID
    model: str
    provider: str
    response_style: str
    searched: ReplyMetaSearched
    timings: Timings
    triage_skipped: bool
    usage: Usage
    user_message_id: UUID
    skip_reason: None | str | Unset = UNSET
    tool_calls: list[ReplyMetaToolCallsItem] | Unset = UNSET
    traversal: None | Trace | Unset = UNSET
    triage_error: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.reply_meta_memories_used_item import ReplyMetaMemoriesUsedItem # noqa: PLC0415
        from ..models.reply_meta_searched import ReplyMetaSearched # noqa: PLC0415
        from ..models.reply_meta_tool_calls_item import ReplyMetaToolCallsItem # noqa: PLC0415
        from ..models.timings import Timings # noqa: PLC0415
        from ..models.trace import Trace # noqa: PLC0415
        from ..models.usage import Usage # noqa: PLC0415
        channel = self.channel

        conversation_id = str(self.conversation_id)

        engine = self.engine

        finish_reason = self.finish_reason

        intent = self.intent

        memories_used = []
        for memories_used_item_data in self.memories_used:
            memories_used_item = memories_used_item_data.to_dict()
            memories_used.append(memories_used_item)



        message_id = str(self.message_id)

        model = self.model

        provider = self.provider

        response_style = self.response_style

        searched = self.searched.to_dict()

        timings = self.timings.to_dict()

        triage_skipped = self.triage_skipped

        usage = self.usage.to_dict()

        user_message_id = str(self.user_message_id)

        skip_reason: None | str | Unset
        if isinstance(self.skip_reason, Unset):
            skip_reason = UNSET
        else:
            skip_reason = self.skip_reason

        tool_calls: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tool_calls, Unset):
            tool_calls = []
            for tool_calls_item_data in self.tool_calls:
                tool_calls_item = tool_calls_item_data.to_dict()
                tool_calls.append(tool_calls_item)



        traversal: dict[str, Any] | None | Unset
        if isinstance(self.traversal, Unset):
            traversal = UNSET
        elif isinstance(self.traversal, Trace):
            traversal = self.traversal.to_dict()
        else:
            traversal = self.traversal

        triage_error: None | str | Unset
        if isinstance(self.triage_error, Unset):
            triage_error = UNSET
        else:
            triage_error = self.triage_error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "channel": channel,
            "conversation_id": conversation_id,
            "engine": engine,
            "finish_reason": finish_reason,
            "intent": intent,
            "memories_used": memories_used,
            "message_id": message_id,
            "model": model,
            "provider": provider,
            "response_style": response_style,
            "searched": searched,
            "timings": timings,
            "triage_skipped": triage_skipped,
            "usage": usage,
            "user_message_id": user_message_id,
        })
        if skip_reason is not UNSET:
            field_dict["skip_reason"] = skip_reason
        if tool_calls is not UNSET:
            field_dict["tool_calls"] = tool_calls
        if traversal is not UNSET:
            field_dict["traversal"] = traversal
        if triage_error is not UNSET:
            field_dict["triage_error"] = triage_error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reply_meta_memories_used_item import ReplyMetaMemoriesUsedItem # noqa: PLC0415
        from ..models.reply_meta_searched import ReplyMetaSearched # noqa: PLC0415
        from ..models.reply_meta_tool_calls_item import ReplyMetaToolCallsItem # noqa: PLC0415
        from ..models.timings import Timings # noqa: PLC0415
        from ..models.trace import Trace # noqa: PLC0415
        from ..models.usage import Usage # noqa: PLC0415
        d = dict(src_dict)
        channel = d.pop("channel")

        conversation_id = UUID(d.pop("conversation_id"))




        engine = d.pop("engine")

        finish_reason = d.pop("finish_reason")

        intent = d.pop("intent")

        memories_used = []
        _memories_used = d.pop("memories_used")
        for memories_used_item_data in (_memories_used):
            memories_used_item = ReplyMetaMemoriesUsedItem.from_dict(memories_used_item_data)



            memories_used.append(memories_used_item)


        message_id = UUID(d.pop("message_id"))




        model = d.pop("model")

        provider = d.pop("provider")

        response_style = d.pop("response_style")

        searched = ReplyMetaSearched.from_dict(d.pop("searched"))




        timings = Timings.from_dict(d.pop("timings"))




        triage_skipped = d.pop("triage_skipped")

        usage = Usage.from_dict(d.pop("usage"))




        user_message_id = UUID(d.pop("user_message_id"))




        def _parse_skip_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        skip_reason = _parse_skip_reason(d.pop("skip_reason", UNSET))


        _tool_calls = d.pop("tool_calls", UNSET)
        tool_calls: list[ReplyMetaToolCallsItem] | Unset = UNSET
        if _tool_calls is not UNSET:
            tool_calls = []
            for tool_calls_item_data in _tool_calls:
                tool_calls_item = ReplyMetaToolCallsItem.from_dict(tool_calls_item_data)



                tool_calls.append(tool_calls_item)


        def _parse_traversal(data: object) -> None | Trace | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                traversal_type_1 = Trace.from_dict(data)



                return traversal_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Trace | Unset, data)

        traversal = _parse_traversal(d.pop("traversal", UNSET))


        def _parse_triage_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        triage_error = _parse_triage_error(d.pop("triage_error", UNSET))


        reply_meta = cls(
            channel=channel,
            conversation_id=conversation_id,
            engine=engine,
            finish_reason=finish_reason,
            intent=intent,
            memories_used=memories_used,
            message_id=message_id,
            model=model,
            provider=provider,
            response_style=response_style,
            searched=searched,
            timings=timings,
            triage_skipped=triage_skipped,
            usage=usage,
            user_message_id=user_message_id,
            skip_reason=skip_reason,
            tool_calls=tool_calls,
            traversal=traversal,
            triage_error=triage_error,
        )


        reply_meta.additional_properties = d
        return reply_meta

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
