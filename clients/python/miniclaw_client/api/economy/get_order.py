from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.order import Order
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    order: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/orders/{order}".format(id=quote(str(id), safe=""),order=quote(str(order), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Order | None:
    if response.status_code == 200:
        response_200 = Order.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Order]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    order: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Order]:
    """ One order the agent is a party to. Key scope: `economy:read`.

    Args:
        id (UUID):
        order (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Order]
     """


    kwargs = _get_kwargs(
        id=id,
order=order,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    order: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Order | None:
    """ One order the agent is a party to. Key scope: `economy:read`.

    Args:
        id (UUID):
        order (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Order
     """


    return sync_detailed(
        id=id,
order=order,
client=client,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    order: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Order]:
    """ One order the agent is a party to. Key scope: `economy:read`.

    Args:
        id (UUID):
        order (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Order]
     """


    kwargs = _get_kwargs(
        id=id,
order=order,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    order: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Order | None:
    """ One order the agent is a party to. Key scope: `economy:read`.

    Args:
        id (UUID):
        order (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Order
     """


    return (await asyncio_detailed(
        id=id,
order=order,
client=client,

    )).parsed
