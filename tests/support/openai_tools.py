"""A real OpenAI SDK client passing its own functions to an agent: the model calls one, the
client sends the result back and gets the answer; the same turn streamed; a `tool_choice`
naming no function, refused through the SDK's error class.

usage: openai_tools.py BASE_URL API_KEY AGENT_ID
Prints one JSON object: {"call": {...}, "answer": {...}, "stream": {...}, "refused": {...}}.
"""
import json
import sys

import openai
from openai import OpenAI

base_url, api_key, agent_id = sys.argv[1:4]
client = OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=30)
tools = [{
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city now.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}]
messages = [{"role": "user", "content": "What is the weather in Oslo?"}]

first = client.chat.completions.create(model=agent_id, messages=messages, tools=tools, tool_choice="auto")
choice = first.choices[0]
calls = choice.message.tool_calls or []
call = {
    "finish_reason": choice.finish_reason,
    "content": choice.message.content,
    "calls": [{"id": c.id, "name": c.function.name, "arguments": json.loads(c.function.arguments)} for c in calls],
}

# The client runs the function and sends its result after the assistant's call.
messages.append(choice.message.model_dump(exclude_none=True))
for c in calls:
    messages.append({"role": "tool", "tool_call_id": c.id, "content": "4 degrees and snowing"})
second = client.chat.completions.create(model=agent_id, messages=messages, tools=tools)
answer = {"finish_reason": second.choices[0].finish_reason, "content": second.choices[0].message.content,
          "conversation_id": (second.model_extra or {}).get("miniclaw", {}).get("conversation_id")}

# The same question streamed: the call arrives as `tool_calls` deltas.
streamed = {"name": "", "arguments": "", "finish_reason": None, "id": None}
for chunk in client.chat.completions.create(
        model=agent_id, messages=[{"role": "user", "content": "And the weather in Bergen?"}], tools=tools,
        tool_choice={"type": "function", "function": {"name": "get_weather"}}, stream=True):
    for ch in chunk.choices:
        for d in ch.delta.tool_calls or []:
            streamed["id"] = d.id or streamed["id"]
            streamed["name"] += (d.function.name or "") if d.function else ""
            streamed["arguments"] += (d.function.arguments or "") if d.function else ""
        if ch.finish_reason:
            streamed["finish_reason"] = ch.finish_reason

try:
    client.chat.completions.create(model=agent_id, messages=messages[:1], tools=tools,
                                   tool_choice={"type": "function", "function": {"name": "get_time"}})
    refused = None
except openai.APIStatusError as e:
    refused = {"class": type(e).__name__, "status": e.status_code, "param": e.param, "code": e.code}

print(json.dumps({"call": call, "answer": answer, "stream": streamed, "refused": refused}))
