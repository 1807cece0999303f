"""MCP servers on loopback for the agents' tool tests: a real one (the official Python SDK's
MCPServer, Streamable HTTP, behind a bearer secret) and one that answers garbage.

usage: mcp_tool_server.py SECRET
Prints `{"mcp": PORT, "garbage": PORT}` on its first line once both listen; runs until killed.
Tools: lookup_weather (read-only), order_pizza (changes things), wait_forever (read-only,
never answers), huge_report (read-only, 50,000 characters).
"""
import asyncio
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

secret = sys.argv[1]
server = MCPServer("loopback-tools")
READ_ONLY = ToolAnnotations(readOnlyHint=True)


@server.tool(annotations=READ_ONLY)
def lookup_weather(city: str) -> str:
    """Today's weather in a city."""
    return f"Sunny in {city}, 21 degrees."


@server.tool()
def order_pizza(size: str) -> str:
    """Orders a pizza to the user's door."""
    return f"Ordered a {size} pizza."


@server.tool(annotations=READ_ONLY)
async def wait_forever() -> str:
    """Looks something up very slowly."""
    await asyncio.sleep(3600)
    return "never"


@server.tool(annotations=READ_ONLY)
def huge_report() -> str:
    """A long report."""
    return "report " * 7143


class RequireSecret:
    """Refuses every request without `Authorization: Bearer <secret>`."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            if headers.get(b"authorization") != f"Bearer {secret}".encode():
                await send({"type": "http.response.start", "status": 401, "headers": []})
                await send({"type": "http.response.body", "body": b""})
                return
        await self.app(scope, receive, send)


class Garbage(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        body = b"<html>this is not an MCP server</html>"
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def main():
    garbage = ThreadingHTTPServer(("127.0.0.1", 0), Garbage)
    threading.Thread(target=garbage.serve_forever, daemon=True).start()
    port = free_port()
    app = RequireSecret(server.streamable_http_app(host="127.0.0.1"))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    web = uvicorn.Server(config)
    serving = asyncio.create_task(web.serve())
    while not web.started:
        await asyncio.sleep(0.05)
    print(json.dumps({"mcp": port, "garbage": garbage.server_address[1]}), flush=True)
    await serving


asyncio.run(main())
