from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.mcp_call import McpCall
from ...models.mcp_call_decision import McpCallDecision
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    call: UUID,
    *,
    body: McpCallDecision,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/mcp-calls/{call}/decision".format(id=quote(str(id), safe=""),call=quote(str(call), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | McpCall | None:
    if response.status_code == 200:
        response_200 = McpCall.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | McpCall]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    call: UUID,
    *,
    client: AuthenticatedClient,
    body: McpCallDecision,

) -> Response[ErrorBody | McpCall]:
    """ Approves (runs it now) or rejects a pending call; 409 once decided. Owner only.

    Args:
        id (UUID):
        call (UUID):
        body (McpCallDecision):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | McpCall]
     """


    kwargs = _get_kwargs(
        id=id,
call=call,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    call: UUID,
    *,
    client: AuthenticatedClient,
    body: McpCallDecision,

) -> ErrorBody | McpCall | None:
    """ Approves (runs it now) or rejects a pending call; 409 once decided. Owner only.

    Args:
        id (UUID):
        call (UUID):
        body (McpCallDecision):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | McpCall
     """


    return sync_detailed(
        id=id,
call=call,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    call: UUID,
    *,
    client: AuthenticatedClient,
    body: McpCallDecision,

) -> Response[ErrorBody | McpCall]:
    """ Approves (runs it now) or rejects a pending call; 409 once decided. Owner only.

    Args:
        id (UUID):
        call (UUID):
        body (McpCallDecision):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | McpCall]
     """


    kwargs = _get_kwargs(
        id=id,
call=call,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    call: UUID,
    *,
    client: AuthenticatedClient,
    body: McpCallDecision,

) -> ErrorBody | McpCall | None:
    """ Approves (runs it now) or rejects a pending call; 409 once decided. Owner only.

    Args:
        id (UUID):
        call (UUID):
        body (McpCallDecision):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | McpCall
     """


    return (await asyncio_detailed(
        id=id,
call=call,
client=client,
body=body,

    )).parsed
