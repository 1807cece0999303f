from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.queued import Queued
from typing import cast
from uuid import UUID



def _get_kwargs(
    endpoint: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks/{endpoint}/test".format(endpoint=quote(str(endpoint), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Queued | None:
    if response.status_code == 202:
        response_202 = Queued.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Queued]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Queued]:
    """ Sends a `webhook.test` event to this endpoint now (through the same queue and retries).

    Args:
        endpoint (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Queued]
     """


    kwargs = _get_kwargs(
        endpoint=endpoint,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Queued | None:
    """ Sends a `webhook.test` event to this endpoint now (through the same queue and retries).

    Args:
        endpoint (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Queued
     """


    return sync_detailed(
        endpoint=endpoint,
client=client,

    ).parsed

async def asyncio_detailed(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Queued]:
    """ Sends a `webhook.test` event to this endpoint now (through the same queue and retries).

    Args:
        endpoint (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Queued]
     """


    kwargs = _get_kwargs(
        endpoint=endpoint,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Queued | None:
    """ Sends a `webhook.test` event to this endpoint now (through the same queue and retries).

    Args:
        endpoint (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Queued
     """


    return (await asyncio_detailed(
        endpoint=endpoint,
client=client,

    )).parsed
