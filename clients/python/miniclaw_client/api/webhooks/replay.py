from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.delivery import Delivery
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    endpoint: UUID,
    delivery: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks/{endpoint}/deliveries/{delivery}/replay".format(endpoint=quote(str(endpoint), safe=""),delivery=quote(str(delivery), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Delivery | ErrorBody | None:
    if response.status_code == 202:
        response_202 = Delivery.from_dict(response.json())



        return response_202

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Delivery | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint: UUID,
    delivery: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Delivery | ErrorBody]:
    """ Sends a delivered or failed delivery again, with the same `webhook-id` (receivers that
    already have it deduplicate). 409 while it is still being tried.

    Args:
        endpoint (UUID):
        delivery (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | ErrorBody]
     """


    kwargs = _get_kwargs(
        endpoint=endpoint,
delivery=delivery,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    endpoint: UUID,
    delivery: UUID,
    *,
    client: AuthenticatedClient,

) -> Delivery | ErrorBody | None:
    """ Sends a delivered or failed delivery again, with the same `webhook-id` (receivers that
    already have it deduplicate). 409 while it is still being tried.

    Args:
        endpoint (UUID):
        delivery (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | ErrorBody
     """


    return sync_detailed(
        endpoint=endpoint,
delivery=delivery,
client=client,

    ).parsed

async def asyncio_detailed(
    endpoint: UUID,
    delivery: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Delivery | ErrorBody]:
    """ Sends a delivered or failed delivery again, with the same `webhook-id` (receivers that
    already have it deduplicate). 409 while it is still being tried.

    Args:
        endpoint (UUID):
        delivery (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | ErrorBody]
     """


    kwargs = _get_kwargs(
        endpoint=endpoint,
delivery=delivery,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    endpoint: UUID,
    delivery: UUID,
    *,
    client: AuthenticatedClient,

) -> Delivery | ErrorBody | None:
    """ Sends a delivered or failed delivery again, with the same `webhook-id` (receivers that
    already have it deduplicate). 409 while it is still being tried.

    Args:
        endpoint (UUID):
        delivery (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | ErrorBody
     """


    return (await asyncio_detailed(
        endpoint=endpoint,
delivery=delivery,
client=client,

    )).parsed
