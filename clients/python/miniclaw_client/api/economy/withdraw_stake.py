from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.stake import Stake
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    stake: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/stakes/{stake}/withdraw".format(id=quote(str(id), safe=""),stake=quote(str(stake), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Stake | None:
    if response.status_code == 200:
        response_200 = Stake.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Stake]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    stake: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Stake]:
    """ Takes an active stake back: the agent's own, or (owner session) one of the owner's. 409 when
    it is not active. Key scope: `economy:write`.

    Args:
        id (UUID):
        stake (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Stake]
     """


    kwargs = _get_kwargs(
        id=id,
stake=stake,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    stake: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Stake | None:
    """ Takes an active stake back: the agent's own, or (owner session) one of the owner's. 409 when
    it is not active. Key scope: `economy:write`.

    Args:
        id (UUID):
        stake (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Stake
     """


    return sync_detailed(
        id=id,
stake=stake,
client=client,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    stake: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Stake]:
    """ Takes an active stake back: the agent's own, or (owner session) one of the owner's. 409 when
    it is not active. Key scope: `economy:write`.

    Args:
        id (UUID):
        stake (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Stake]
     """


    kwargs = _get_kwargs(
        id=id,
stake=stake,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    stake: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Stake | None:
    """ Takes an active stake back: the agent's own, or (owner session) one of the owner's. 409 when
    it is not active. Key scope: `economy:write`.

    Args:
        id (UUID):
        stake (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Stake
     """


    return (await asyncio_detailed(
        id=id,
stake=stake,
client=client,

    )).parsed
