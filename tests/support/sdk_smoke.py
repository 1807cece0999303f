"""The generated Python client (clients/python) against a running server: sign up, create an
agent and a key, chat with the key, store and search a memory, and stream a reply over the
client's own HTTP connection. Prints one JSON line of what it saw.

    python sdk_smoke.py <clients/python> <base url>
"""

import json
import sys

sys.path.insert(0, sys.argv[1])

from miniclaw_client import AuthenticatedClient, Client  # noqa: E402
from miniclaw_client.api.agents import create_agent  # noqa: E402
from miniclaw_client.api.auth import me, signup  # noqa: E402
from miniclaw_client.api.chat import chat_turn  # noqa: E402
from miniclaw_client.api.keys import create_key  # noqa: E402
from miniclaw_client.api.memories import create_memory, search_memories  # noqa: E402
from miniclaw_client.models import (  # noqa: E402
    AgentInput,
    ChatInput,
    ChatReply,
    CreateKeyRequest,
    IssuedKey,
    Memory,
    MemoryInput,
    SearchRequest,
    SearchResponse,
    SessionResponse,
    SignupRequest,
)
from miniclaw_client.models import Agent as AgentModel  # noqa: E402


def expect(value, kind):
    if not isinstance(value, kind):
        raise SystemExit(f"expected {kind.__name__}, got {value!r}")
    return value


base = sys.argv[2]
anonymous = Client(base_url=base, raise_on_unexpected_status=True)
session = expect(
    signup.sync(client=anonymous, body=SignupRequest(email="sdk@example.com", password="correct horse battery")),
    SessionResponse,
)
owner = AuthenticatedClient(base_url=base, token=session.session_token, raise_on_unexpected_status=True)
who = me.sync(client=owner)
agent = expect(create_agent.sync(client=owner, body=AgentInput(name="Ada", persona="A patient tutor")), AgentModel)
issued = expect(
    create_key.sync(agent.id, client=owner, body=CreateKeyRequest(name="sdk", scopes=["chat:write", "memories:write", "memories:read"])),
    IssuedKey,
)
keyed = AuthenticatedClient(base_url=base, token=issued.key, raise_on_unexpected_status=True)

reply = expect(chat_turn.sync(agent.id, client=keyed, body=ChatInput(message="Hello there!")), ChatReply)
memory = expect(
    create_memory.sync(agent.id, client=keyed, body=MemoryInput(category="identity", content="The user lives in Vienna")),
    Memory,
)
found = expect(search_memories.sync(agent.id, client=keyed, body=SearchRequest(query="where does the user live")), SearchResponse)

# A streamed reply: the same authenticated client, asking for server-sent events.
events = []
with keyed.get_httpx_client().stream(
    "POST",
    f"/v1/hosted-agents/{agent.id}/chat",
    json={"message": "Tell me something"},
    headers={"accept": "text/event-stream"},
) as r:
    for line in r.iter_lines():
        if line.startswith("event:"):
            events.append(line.split(":", 1)[1].strip())

print(
    json.dumps(
        {
            "email": who.owner.email,
            "agent": str(agent.id),
            "key_scopes": issued.scopes,
            "reply": reply.reply,
            "conversation": str(reply.conversation_id),
            "memory": memory.content,
            "found": [r.memory.content for r in found.results],
            "events": events,
        }
    )
)
