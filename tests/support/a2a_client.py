"""A real A2A client (the official Python SDK, `a2a-sdk`) of an agent: the Agent Card resolved
from the agent's base URL, then one scenario.

usage: a2a_client.py AGENT_BASE_URL KEY SCENARIO
  plain   two messages in one context (no streaming), the task read back, the refusals
  stream  one streamed message: the task, the reply's text in chunks, the final status
  cancel  one streamed message, cancelled from a second client after its first chunk
Prints one JSON object on stdout.
"""
import asyncio
import json
import sys
from uuid import uuid4

import httpx
from a2a.client import ClientConfig, create_client
from a2a.types.a2a_pb2 import CancelTaskRequest, GetTaskRequest, Message, Part, Role, SendMessageRequest
from google.protobuf import json_format

base, key, scenario = sys.argv[1:4]


def as_dict(proto):
    return json_format.MessageToDict(proto)


def message(text, context_id=None):
    m = Message(message_id=str(uuid4()), role=Role.ROLE_USER, parts=[Part(text=text)])
    if context_id:
        m.context_id = context_id
    return SendMessageRequest(message=m)


async def client(streaming):
    http = httpx.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
    return await create_client(base, client_config=ClientConfig(streaming=streaming, httpx_client=http))


async def events(c, request):
    return [as_dict(e) async for e in c.send_message(request)]


async def refused(call):
    try:
        await call()
    except Exception as e:  # the SDK's error class for the JSON-RPC error code
        return type(e).__name__
    return None


async def main():
    out = {}
    if scenario == "plain":
        c = await client(streaming=False)
        out["card"] = as_dict(c._card)
        first = await events(c, message("Hi, I am Bea and I keep bees on my roof."))
        out["first"] = first
        task = first[0]["task"]
        out["second"] = await events(c, message("What do I keep on my roof?", task["contextId"]))
        out["got"] = as_dict(await c.get_task(GetTaskRequest(id=task["id"])))
        out["unknown_task"] = await refused(lambda: c.get_task(GetTaskRequest(id=str(uuid4()))))
        out["cancel_ended"] = await refused(lambda: c.cancel_task(CancelTaskRequest(id=task["id"])))
        out["not_text"] = await refused(lambda: events(c, SendMessageRequest(message=Message(
            message_id=str(uuid4()), role=Role.ROLE_USER, parts=[Part(url="https://example.com/a.png")]))))
        out["bad_context"] = await refused(lambda: events(c, message("hello", "not-a-context")))
    elif scenario == "stream":
        c = await client(streaming=True)
        out["events"] = await events(c, message("Tell me a story"))
    elif scenario == "cancel":
        c = await client(streaming=True)
        other = await client(streaming=False)
        seen = []
        async for e in c.send_message(message("Tell me a long story")):
            seen.append(as_dict(e))
            if "artifactUpdate" in seen[-1] and "cancelled" not in out:
                task_id = seen[-1]["artifactUpdate"]["taskId"]
                out["cancelled"] = as_dict(await other.cancel_task(CancelTaskRequest(id=task_id)))
        out["events"] = seen
        out["got"] = as_dict(await other.get_task(GetTaskRequest(id=out["cancelled"]["id"])))
    print(json.dumps(out))


asyncio.run(main())
