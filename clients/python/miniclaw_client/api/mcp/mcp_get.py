from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.mcp_get_response_400 import McpGetResponse400
from ...models.mcp_get_response_401 import McpGetResponse401
from ...models.mcp_get_response_404 import McpGetResponse404
from ...models.mcp_get_response_406 import McpGetResponse406
from ...models.mcp_get_response_413 import McpGetResponse413
from ...models.mcp_get_response_429 import McpGetResponse429
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
        "method": "get",
        "url": "/mcp",
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = McpGetResponse400.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = McpGetResponse401.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = McpGetResponse404.from_dict(response.json())



        return response_404

    if response.status_code == 405:
        response_405 = cast(Any, None)
        return response_405

    if response.status_code == 406:
        response_406 = McpGetResponse406.from_dict(response.json())



        return response_406

    if response.status_code == 413:
        response_413 = McpGetResponse413.from_dict(response.json())



        return response_413

    if response.status_code == 429:
        response_429 = McpGetResponse429.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str]:
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

) -> Response[Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str]:
    """ Open the session's stream of server messages (Server-Sent Events)

    Args:
        mcp_session_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str]
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

) -> Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str | None:
    """ Open the session's stream of server messages (Server-Sent Events)

    Args:
        mcp_session_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str
     """


    return sync_detailed(
        client=client,
mcp_session_id=mcp_session_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    mcp_session_id: str | Unset = UNSET,

) -> Response[Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str]:
    """ Open the session's stream of server messages (Server-Sent Events)

    Args:
        mcp_session_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str]
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

) -> Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str | None:
    """ Open the session's stream of server messages (Server-Sent Events)

    Args:
        mcp_session_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | McpGetResponse400 | McpGetResponse401 | McpGetResponse404 | McpGetResponse406 | McpGetResponse413 | McpGetResponse429 | str
     """


    return (await asyncio_detailed(
        client=client,
mcp_session_id=mcp_session_id,

    )).parsed
