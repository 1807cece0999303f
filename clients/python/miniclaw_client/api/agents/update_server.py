from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.mcp_server import McpServer
from ...models.mcp_server_patch import McpServerPatch
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    server: UUID,
    *,
    body: McpServerPatch,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/hosted-agents/{id}/mcp-servers/{server}".format(id=quote(str(id), safe=""),server=quote(str(server), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | McpServer | None:
    if response.status_code == 200:
        response_200 = McpServer.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | McpServer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    server: UUID,
    *,
    client: AuthenticatedClient,
    body: McpServerPatch,

) -> Response[ErrorBody | McpServer]:
    """ Changes a server's approval (`writes` or `never`) and the speakers its tools are available
    to besides the owner in person (`available_to`: `owner_key`, `end_user`, `correspondent`,
    `peer`, `payer`). The tools run with the server's stored secret, so share them knowingly.
    Owner only.

    Args:
        id (UUID):
        server (UUID):
        body (McpServerPatch): A change to an attached server's settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | McpServer]
     """


    kwargs = _get_kwargs(
        id=id,
server=server,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    server: UUID,
    *,
    client: AuthenticatedClient,
    body: McpServerPatch,

) -> ErrorBody | McpServer | None:
    """ Changes a server's approval (`writes` or `never`) and the speakers its tools are available
    to besides the owner in person (`available_to`: `owner_key`, `end_user`, `correspondent`,
    `peer`, `payer`). The tools run with the server's stored secret, so share them knowingly.
    Owner only.

    Args:
        id (UUID):
        server (UUID):
        body (McpServerPatch): A change to an attached server's settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | McpServer
     """


    return sync_detailed(
        id=id,
server=server,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    server: UUID,
    *,
    client: AuthenticatedClient,
    body: McpServerPatch,

) -> Response[ErrorBody | McpServer]:
    """ Changes a server's approval (`writes` or `never`) and the speakers its tools are available
    to besides the owner in person (`available_to`: `owner_key`, `end_user`, `correspondent`,
    `peer`, `payer`). The tools run with the server's stored secret, so share them knowingly.
    Owner only.

    Args:
        id (UUID):
        server (UUID):
        body (McpServerPatch): A change to an attached server's settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | McpServer]
     """


    kwargs = _get_kwargs(
        id=id,
server=server,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    server: UUID,
    *,
    client: AuthenticatedClient,
    body: McpServerPatch,

) -> ErrorBody | McpServer | None:
    """ Changes a server's approval (`writes` or `never`) and the speakers its tools are available
    to besides the owner in person (`available_to`: `owner_key`, `end_user`, `correspondent`,
    `peer`, `payer`). The tools run with the server's stored secret, so share them knowingly.
    Owner only.

    Args:
        id (UUID):
        server (UUID):
        body (McpServerPatch): A change to an attached server's settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | McpServer
     """


    return (await asyncio_detailed(
        id=id,
server=server,
client=client,
body=body,

    )).parsed
