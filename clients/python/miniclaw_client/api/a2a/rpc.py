from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.rpc_body import RpcBody
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: RpcBody,
    a2a_version: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(a2a_version, Unset):
        headers["A2A-Version"] = a2a_version



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/a2a".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: RpcBody,
    a2a_version: None | str | Unset = UNSET,

) -> Response[Any | ErrorBody]:
    """ A2A JSON-RPC for agent `id`: `SendMessage`, `SendStreamingMessage` (Server-Sent Events),
    `GetTask`, `CancelTask`. Sending needs the key scope `chat:write`, reading `chat:read`; the
    turns are conversations of the `a2a` channel, seen by the owner and the key's end user.

    Args:
        id (UUID):
        a2a_version (None | str | Unset):
        body (RpcBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
a2a_version=a2a_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: RpcBody,
    a2a_version: None | str | Unset = UNSET,

) -> Any | ErrorBody | None:
    """ A2A JSON-RPC for agent `id`: `SendMessage`, `SendStreamingMessage` (Server-Sent Events),
    `GetTask`, `CancelTask`. Sending needs the key scope `chat:write`, reading `chat:read`; the
    turns are conversations of the `a2a` channel, seen by the owner and the key's end user.

    Args:
        id (UUID):
        a2a_version (None | str | Unset):
        body (RpcBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
a2a_version=a2a_version,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: RpcBody,
    a2a_version: None | str | Unset = UNSET,

) -> Response[Any | ErrorBody]:
    """ A2A JSON-RPC for agent `id`: `SendMessage`, `SendStreamingMessage` (Server-Sent Events),
    `GetTask`, `CancelTask`. Sending needs the key scope `chat:write`, reading `chat:read`; the
    turns are conversations of the `a2a` channel, seen by the owner and the key's end user.

    Args:
        id (UUID):
        a2a_version (None | str | Unset):
        body (RpcBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
a2a_version=a2a_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: RpcBody,
    a2a_version: None | str | Unset = UNSET,

) -> Any | ErrorBody | None:
    """ A2A JSON-RPC for agent `id`: `SendMessage`, `SendStreamingMessage` (Server-Sent Events),
    `GetTask`, `CancelTask`. Sending needs the key scope `chat:write`, reading `chat:read`; the
    turns are conversations of the `a2a` channel, seen by the owner and the key's end user.

    Args:
        id (UUID):
        a2a_version (None | str | Unset):
        body (RpcBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
a2a_version=a2a_version,

    )).parsed
