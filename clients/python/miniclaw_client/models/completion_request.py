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
  from ..models.completion_message import CompletionMessage
  from ..models.completion_request_stream_options_type_0 import CompletionRequestStreamOptionsType0
  from ..models.completion_request_tool_choice_type_0 import CompletionRequestToolChoiceType0
  from ..models.completion_request_tools_type_0_item import CompletionRequestToolsType0Item





T = TypeVar("T", bound="CompletionRequest")



@_attrs_define
class CompletionRequest:
    """ OpenAI's chat-completions request. Unknown fields (temperature, ...) are accepted and ignored:
    the agent's own settings decide.

        Attributes:
            messages (list[CompletionMessage]):
            model (str): The agent id.
            conversation_id (None | Unset | UUID):
            stream (bool | Unset):
            stream_options (CompletionRequestStreamOptionsType0 | None | Unset): `{"include_usage": true}` adds a usage
                chunk to the stream.
            tool_choice (CompletionRequestToolChoiceType0 | None | Unset): `none`, `auto` (the default), `required`, or
                `{type: "function", function: {name}}`.
            tools (list[CompletionRequestToolsType0Item] | None | Unset): Functions the model may call, OpenAI's shape
                (`[{type: "function", function: {name,
                description, parameters}}]`, at most 128). The agent never runs them: a reply that calls
                them has `tool_calls` and `finish_reason: "tool_calls"`, and the client sends the
                results back as `tool` messages after that assistant message. Passed to the agent's
                model; the offline engine (no model configured) answers in text and refuses
                `tool_choice` `required` or a named function.
            user (None | str | Unset): The miniapp end user the call is for (1–128 characters): the conversation is theirs
                and
                only their conversations are continued. A key bound to an end user refuses another (403).
     """

    messages: list[CompletionMessage]
    model: str
    conversation_id: None | Unset | UUID = UNSET
    stream: bool | Unset = UNSET
    stream_options: CompletionRequestStreamOptionsType0 | None | Unset = UNSET
    tool_choice: CompletionRequestToolChoiceType0 | None | Unset = UNSET
    tools: list[CompletionRequestToolsType0Item] | None | Unset = UNSET
    user: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.completion_message import CompletionMessage # noqa: PLC0415
        from ..models.completion_request_stream_options_type_0 import CompletionRequestStreamOptionsType0 # noqa: PLC0415
        from ..models.completion_request_tool_choice_type_0 import CompletionRequestToolChoiceType0 # noqa: PLC0415
        from ..models.completion_request_tools_type_0_item import CompletionRequestToolsType0Item # noqa: PLC0415
        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)



        model = self.model

        conversation_id: None | str | Unset
        if isinstance(self.conversation_id, Unset):
            conversation_id = UNSET
        elif isinstance(self.conversation_id, UUID):
            conversation_id = str(self.conversation_id)
        else:
            conversation_id = self.conversation_id

        stream = self.stream

        stream_options: dict[str, Any] | None | Unset
        if isinstance(self.stream_options, Unset):
            stream_options = UNSET
        elif isinstance(self.stream_options, CompletionRequestStreamOptionsType0):
            stream_options = self.stream_options.to_dict()
        else:
            stream_options = self.stream_options

        tool_choice: dict[str, Any] | None | Unset
        if isinstance(self.tool_choice, Unset):
            tool_choice = UNSET
        elif isinstance(self.tool_choice, CompletionRequestToolChoiceType0):
            tool_choice = self.tool_choice.to_dict()
        else:
            tool_choice = self.tool_choice

        tools: list[dict[str, Any]] | None | Unset
        if isinstance(self.tools, Unset):
            tools = UNSET
        elif isinstance(self.tools, list):
            tools = []
            for tools_type_0_item_data in self.tools:
                tools_type_0_item = tools_type_0_item_data.to_dict()
                tools.append(tools_type_0_item)


        else:
            tools = self.tools

        user: None | str | Unset
        if isinstance(self.user, Unset):
            user = UNSET
        else:
            user = self.user


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "messages": messages,
            "model": model,
        })
        if conversation_id is not UNSET:
            field_dict["conversation_id"] = conversation_id
        if stream is not UNSET:
            field_dict["stream"] = stream
        if stream_options is not UNSET:
            field_dict["stream_options"] = stream_options
        if tool_choice is not UNSET:
            field_dict["tool_choice"] = tool_choice
        if tools is not UNSET:
            field_dict["tools"] = tools
        if user is not UNSET:
            field_dict["user"] = user

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.completion_message import CompletionMessage # noqa: PLC0415
        from ..models.completion_request_stream_options_type_0 import CompletionRequestStreamOptionsType0 # noqa: PLC0415
        from ..models.completion_request_tool_choice_type_0 import CompletionRequestToolChoiceType0 # noqa: PLC0415
        from ..models.completion_request_tools_type_0_item import CompletionRequestToolsType0Item # noqa: PLC0415
        d = dict(src_dict)
        messages = []
        _messages = d.pop("messages")
        for messages_item_data in (_messages):
            messages_item = CompletionMessage.from_dict(messages_item_data)



            messages.append(messages_item)


        model = d.pop("model")

        def _parse_conversation_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                conversation_id_type_1 = UUID(data)



                return conversation_id_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        conversation_id = _parse_conversation_id(d.pop("conversation_id", UNSET))


        stream = d.pop("stream", UNSET)

        def _parse_stream_options(data: object) -> CompletionRequestStreamOptionsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                stream_options_type_0 = CompletionRequestStreamOptionsType0.from_dict(data)



                return stream_options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompletionRequestStreamOptionsType0 | None | Unset, data)

        stream_options = _parse_stream_options(d.pop("stream_options", UNSET))


        def _parse_tool_choice(data: object) -> CompletionRequestToolChoiceType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tool_choice_type_0 = CompletionRequestToolChoiceType0.from_dict(data)



                return tool_choice_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompletionRequestToolChoiceType0 | None | Unset, data)

        tool_choice = _parse_tool_choice(d.pop("tool_choice", UNSET))


        def _parse_tools(data: object) -> list[CompletionRequestToolsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tools_type_0 = []
                _tools_type_0 = data
                for tools_type_0_item_data in (_tools_type_0):
                    tools_type_0_item = CompletionRequestToolsType0Item.from_dict(tools_type_0_item_data)



                    tools_type_0.append(tools_type_0_item)

                return tools_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[CompletionRequestToolsType0Item] | None | Unset, data)

        tools = _parse_tools(d.pop("tools", UNSET))


        def _parse_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user = _parse_user(d.pop("user", UNSET))


        completion_request = cls(
            messages=messages,
            model=model,
            conversation_id=conversation_id,
            stream=stream,
            stream_options=stream_options,
            tool_choice=tool_choice,
            tools=tools,
            user=user,
        )


        completion_request.additional_properties = d
        return completion_request

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
