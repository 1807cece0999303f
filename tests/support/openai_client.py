"""A real OpenAI SDK client of /v1: the models listed and one retrieved, one plain chat call,
one streamed, and two refused calls read through the SDK's error classes.

usage: openai_client.py BASE_URL API_KEY AGENT_ID MESSAGE
Prints one JSON object: {"models": [...], "model": {...}, "plain": {...}, "stream": {...},
"errors": [...]}.
"""
import json
import sys

import openai
from openai import OpenAI

base_url, api_key, agent_id, message = sys.argv[1:5]
client = OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=30)

models = [{"id": m.id, "object": m.object, "owned_by": m.owned_by} for m in client.models.list()]
one = client.models.retrieve(agent_id)


def refused(call):
    try:
        call()
    except openai.APIStatusError as e:
        return {"class": type(e).__name__, "status": e.status_code, "type": e.type, "param": e.param,
                "code": e.code, "message": e.message}
    return None


errors = [
    refused(lambda: client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])),
    refused(lambda: client.chat.completions.create(model=agent_id, messages=[{"role": "system", "content": "x"}])),
    refused(lambda: OpenAI(base_url=base_url, api_key="mck_unknown", max_retries=0).models.list()),
]

plain = client.chat.completions.create(model=agent_id, messages=[{"role": "user", "content": message}])
text = ""
chunks = 0
finish = None
usage = None
stream = client.chat.completions.create(
    model=agent_id,
    messages=[
        {"role": "user", "content": message},
        {"role": "assistant", "content": plain.choices[0].message.content},
        {"role": "user", "content": "Thanks, and what do you know about me?"},
    ],
    stream=True,
    stream_options={"include_usage": True},
)
for chunk in stream:
    chunks += 1
    if chunk.usage is not None:
        usage = chunk.usage.total_tokens
    for choice in chunk.choices:
        if choice.delta.content:
            text += choice.delta.content
        if choice.finish_reason:
            finish = choice.finish_reason

print(json.dumps({
    "models": models,
    "model": {"id": one.id, "object": one.object},
    "errors": errors,
    "plain": {
        "id": plain.id,
        "object": plain.object,
        "content": plain.choices[0].message.content,
        "finish_reason": plain.choices[0].finish_reason,
        "total_tokens": plain.usage.total_tokens,
    },
    "stream": {"content": text, "chunks": chunks, "finish_reason": finish, "total_tokens": usage},
}))
