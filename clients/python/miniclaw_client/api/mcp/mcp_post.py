from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.mcp_post_body import McpPostBody
from ...models.mcp_post_response_200 import McpPostResponse200
from ...models.mcp_post_response_400 import McpPostResponse400
from ...models.mcp_post_response_401 import McpPostResponse401
from ...models.mcp_post_response_404 import McpPostResponse404
from ...models.mcp_post_response_406 import McpPostResponse406
from ...models.mcp_post_response_413 import McpPostResponse413
from ...models.mcp_post_response_429 import McpPostResponse429
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: McpPostBody,
    mcp_session_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(mcp_session_id, Unset):
        headers["Mcp-Session-Id"] = mcp_session_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/mcp",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429 | None:
    if response.status_code == 200:
        response_200 = McpPostResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 202:
        response_202 = cast(Any, None)
        return response_202

    if response.status_code == 400:
        response_400 = McpPostResponse400.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = McpPostResponse401.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = McpPostResponse404.from_dict(response.json())



        return response_404

    if response.status_code == 406:
        response_406 = McpPostResponse406.from_dict(response.json())



        return response_406

    if response.status_code == 413:
        response_413 = McpPostResponse413.from_dict(response.json())



        return response_413

    if response.status_code == 429:
        response_429 = McpPostResponse429.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: McpPostBody,
    mcp_session_id: str | Unset = UNSET,

) -> Response[Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429]:
    """ Send an MCP message (JSON-RPC) to the key's agent

     The Streamable HTTP transport of the Model Context Protocol. Tools: chat, search_memories,
    add_memory, update_memory, forget_memory, list_tasks, propose_task, read_dossier, read_soul,
    recent_activity, economy_summary, each needing the key scope of the REST route it mirrors;
    resources: the agent's profile, dossier and pinned memories. Send `Accept: application/json,
    text/event-stream`.

    Args:
        mcp_session_id (str | Unset):
        body (McpPostBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429]
     """


    kwargs = _get_kwargs(
        body=body,
mcp_session_id=mcp_session_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: McpPostBody,
    mcp_session_id: str | Unset = UNSET,

) -> Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429 | None:
    """ Send an MCP message (JSON-RPC) to the key's agent

     The Streamable HTTP transport of the Model Context Protocol. Tools: chat, search_memories,
    add_memory, update_memory, forget_memory, list_tasks, propose_task, read_dossier, read_soul,
    recent_activity, economy_summary, each needing the key scope of the REST route it mirrors;
    resources: the agent's profile, dossier and pinned memories. Send `Accept: application/json,
    text/event-stream`.

    Args:
        mcp_session_id (str | Unset):
        body (McpPostBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429
     """


    return sync_detailed(
        client=client,
body=body,
mcp_session_id=mcp_session_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: McpPostBody,
    mcp_session_id: str | Unset = UNSET,

) -> Response[Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429]:
    """ Send an MCP message (JSON-RPC) to the key's agent

     The Streamable HTTP transport of the Model Context Protocol. Tools: chat, search_memories,
    add_memory, update_memory, forget_memory, list_tasks, propose_task, read_dossier, read_soul,
    recent_activity, economy_summary, each needing the key scope of the REST route it mirrors;
    resources: the agent's profile, dossier and pinned memories. Send `Accept: application/json,
    text/event-stream`.

    Args:
        mcp_session_id (str | Unset):
        body (McpPostBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429]
     """


    kwargs = _get_kwargs(
        body=body,
mcp_session_id=mcp_session_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: McpPostBody,
    mcp_session_id: str | Unset = UNSET,

) -> Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429 | None:
    """ Send an MCP message (JSON-RPC) to the key's agent

     The Streamable HTTP transport of the Model Context Protocol. Tools: chat, search_memories,
    add_memory, update_memory, forget_memory, list_tasks, propose_task, read_dossier, read_soul,
    recent_activity, economy_summary, each needing the key scope of the REST route it mirrors;
    resources: the agent's profile, dossier and pinned memories. Send `Accept: application/json,
    text/event-stream`.

    Args:
        mcp_session_id (str | Unset):
        body (McpPostBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | McpPostResponse200 | McpPostResponse400 | McpPostResponse401 | McpPostResponse404 | McpPostResponse406 | McpPostResponse413 | McpPostResponse429
     """


    return (await asyncio_detailed(
        client=client,
body=body,
mcp_session_id=mcp_session_id,

    )).parsed
