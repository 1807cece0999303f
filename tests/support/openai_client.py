"""A real OpenAI SDK client of /v1/chat/completions: one plain call, one streamed.

usage: openai_client.py BASE_URL API_KEY AGENT_ID MESSAGE
Prints one JSON object: {"plain": {...}, "stream": {...}}.
"""
import json
import sys

from openai import OpenAI

base_url, api_key, agent_id, message = sys.argv[1:5]
client = OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=30)

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
    "plain": {
        "id": plain.id,
        "object": plain.object,
        "content": plain.choices[0].message.content,
        "finish_reason": plain.choices[0].finish_reason,
        "total_tokens": plain.usage.total_tokens,
    },
    "stream": {"content": text, "chunks": chunks, "finish_reason": finish, "total_tokens": usage},
}))
