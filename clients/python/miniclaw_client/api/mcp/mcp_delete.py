from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.mcp_delete_response_400 import McpDeleteResponse400
from ...models.mcp_delete_response_401 import McpDeleteResponse401
from ...models.mcp_delete_response_404 import McpDeleteResponse404
from ...models.mcp_delete_response_406 import McpDeleteResponse406
from ...models.mcp_delete_response_413 import McpDeleteResponse413
from ...models.mcp_delete_response_429 import McpDeleteResponse429
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    mcp_session_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(mcp_session_id, Unset):
        headers["Mcp-Session-Id"] = mcp_session_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/mcp",
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429 | None:
    if response.status_code == 202:
        response_202 = cast(Any, None)
        return response_202

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = McpDeleteResponse400.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = McpDeleteResponse401.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = McpDeleteResponse404.from_dict(response.json())



        return response_404

    if response.status_code == 406:
        response_406 = McpDeleteResponse406.from_dict(response.json())



        return response_406

    if response.status_code == 413:
        response_413 = McpDeleteResponse413.from_dict(response.json())



        return response_413

    if response.status_code == 429:
        response_429 = McpDeleteResponse429.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    mcp_session_id: str | Unset = UNSET,

) -> Response[Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429]:
    """ End an MCP session

    Args:
        mcp_session_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429]
     """


    kwargs = _get_kwargs(
        mcp_session_id=mcp_session_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    mcp_session_id: str | Unset = UNSET,

) -> Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429 | None:
    """ End an MCP session

    Args:
        mcp_session_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429
     """


    return sync_detailed(
        client=client,
mcp_session_id=mcp_session_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    mcp_session_id: str | Unset = UNSET,

) -> Response[Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429]:
    """ End an MCP session

    Args:
        mcp_session_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429]
     """


    kwargs = _get_kwargs(
        mcp_session_id=mcp_session_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    mcp_session_id: str | Unset = UNSET,

) -> Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429 | None:
    """ End an MCP session

    Args:
        mcp_session_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | McpDeleteResponse400 | McpDeleteResponse401 | McpDeleteResponse404 | McpDeleteResponse406 | McpDeleteResponse413 | McpDeleteResponse429
     """


    return (await asyncio_detailed(
        client=client,
mcp_session_id=mcp_session_id,

    )).parsed
