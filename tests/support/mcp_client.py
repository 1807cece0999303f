"""A real MCP client (the official Python SDK, `mcp`) of an agent's MCP endpoint: every tool
called once, the resources listed and read, and the calls a key must not make.

usage: mcp_client.py URL MODE FULL_KEY NARROW_KEY OTHER_KEY
MODE is `legacy` (the initialize handshake and a session) or `auto` (the SDK's default: the
newest revision the server offers); `cancel` (a session) gives up on a chat call after a second,
which cancels it, then makes another call in the same session. NARROW_KEY holds only `memories:read`; OTHER_KEY is a key of
another tenant's agent. Prints one JSON object on stdout.
"""
import asyncio
import json
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

url, mode, full_key, narrow_key, other_key = sys.argv[1:6]


def connect(key):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120))
    transport = streamable_http_client(url, http_client=http)
    return Client(transport, mode="legacy" if mode == "cancel" else mode, read_timeout_seconds=60)


def result(r):
    return {"is_error": bool(r.is_error), "structured": r.structured_content,
            "text": [c.text for c in r.content if getattr(c, "text", None) is not None]}


async def protocol_error(call):
    try:
        await call()
    except MCPError as e:
        return {"code": e.code, "message": e.message}
    return None


async def cancelled():
    out = {}
    async with connect(full_key) as client:
        try:
            await client.call_tool("chat", {"message": "Tell me a story"}, read_timeout_seconds=1.0)
            out["gave_up"] = None
        except Exception as e:  # the SDK's timeout error; it sent notifications/cancelled
            out["gave_up"] = type(e).__name__
        out["after"] = result(await client.call_tool("search_memories", {"query": "story"}))
    print(json.dumps(out))


async def main():
    if mode == "cancel":
        return await cancelled()
    out = {}
    async with connect(full_key) as client:
        out["protocol_version"] = client.protocol_version
        out["tools"] = sorted(t.name for t in (await client.list_tools()).tools)
        out["schemas"] = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        added = await client.call_tool("add_memory", {"content": "The user keeps bees on a roof in Lisbon.",
                                                      "category": "context", "pinned": True})
        out["add"] = result(added)
        memory_id = added.structured_content["id"]
        out["search"] = result(await client.call_tool("search_memories", {"query": "bees Lisbon", "limit": 5}))
        out["update"] = result(await client.call_tool("update_memory", {
            "memory_id": memory_id, "importance": 9, "reason": "the bees matter"}))
        out["resources"] = sorted(r.uri for r in (await client.list_resources()).resources)
        pinned = await client.read_resource("miniclaw://agent/pinned-memories")
        out["pinned"] = json.loads(pinned.contents[0].text)
        profile = await client.read_resource("miniclaw://agent/profile")
        out["profile"] = json.loads(profile.contents[0].text)
        out["dossier_resource"] = await protocol_error(lambda: client.read_resource("miniclaw://agent/dossier"))
        out["unknown_resource"] = await protocol_error(lambda: client.read_resource("miniclaw://agent/nothing"))

        progress = []

        async def on_progress(done, total, message):
            progress.append({"progress": done, "message": message})

        out["chat"] = result(await client.call_tool("chat", {"message": "What do I keep on my roof?"},
                                                    progress_callback=on_progress))
        out["progress"] = progress
        conversation = out["chat"]["structured"]["conversation_id"]
        out["chat_again"] = result(await client.call_tool("chat", {"message": "And where is it?",
                                                                   "conversation_id": conversation}))
        out["propose_task"] = result(await client.call_tool("propose_task", {"title": "Order a new bee suit"}))
        out["list_tasks"] = result(await client.call_tool("list_tasks", {"limit": 5}))
        out["read_soul"] = result(await client.call_tool("read_soul", {}))
        out["read_dossier"] = result(await client.call_tool("read_dossier", {}))
        out["recent_activity"] = result(await client.call_tool("recent_activity", {}))
        out["economy_summary"] = result(await client.call_tool("economy_summary", {}))
        out["bad_arguments"] = result(await client.call_tool("search_memories", {"query": 7}))
        out["unknown_field"] = result(await client.call_tool("add_memory", {"content": "x", "category": "context",
                                                                            "owner": "me"}))
        out["too_long"] = result(await client.call_tool("chat", {"message": "x" * 2001}))
        out["unknown_tool"] = await protocol_error(lambda: client.call_tool("drop_tables", {}))
        out["forget"] = result(await client.call_tool("forget_memory", {"memory_id": memory_id}))
        out["forget_again"] = result(await client.call_tool("forget_memory", {"memory_id": memory_id}))

    async with connect(narrow_key) as client:
        out["narrow_search"] = result(await client.call_tool("search_memories", {"query": "bees"}))
        out["narrow_add"] = result(await client.call_tool("add_memory", {"content": "The user hates bees.",
                                                                         "category": "preference"}))
        out["narrow_chat"] = result(await client.call_tool("chat", {"message": "hello"}))
        out["narrow_profile"] = await protocol_error(lambda: client.read_resource("miniclaw://agent/profile"))

    async with connect(other_key) as client:
        out["other_update"] = result(await client.call_tool("update_memory", {"memory_id": memory_id,
                                                                              "content": "Mine now."}))
        out["other_search"] = result(await client.call_tool("search_memories", {"query": "bees Lisbon"}))

    try:
        async with connect("") as client:
            await client.list_tools()
        out["anonymous"] = "admitted"
    except Exception as e:  # the SDK raises its transport error for the 401
        out["anonymous"] = type(e).__name__ + ": " + str(e)[:200]
    print(json.dumps(out))


asyncio.run(main())
