from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.endpoint_with_secret import EndpointWithSecret
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    endpoint: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks/{endpoint}/rotate-secret".format(endpoint=quote(str(endpoint), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EndpointWithSecret | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EndpointWithSecret.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EndpointWithSecret | ErrorBody]:
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

) -> Response[EndpointWithSecret | ErrorBody]:
    """ A new signing secret (in the answer, only there). For 24 hours deliveries carry a signature
    by the previous secret beside the new one, so receivers switch without losing any.

    Args:
        endpoint (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointWithSecret | ErrorBody]
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

) -> EndpointWithSecret | ErrorBody | None:
    """ A new signing secret (in the answer, only there). For 24 hours deliveries carry a signature
    by the previous secret beside the new one, so receivers switch without losing any.

    Args:
        endpoint (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointWithSecret | ErrorBody
     """


    return sync_detailed(
        endpoint=endpoint,
client=client,

    ).parsed

async def asyncio_detailed(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[EndpointWithSecret | ErrorBody]:
    """ A new signing secret (in the answer, only there). For 24 hours deliveries carry a signature
    by the previous secret beside the new one, so receivers switch without losing any.

    Args:
        endpoint (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointWithSecret | ErrorBody]
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

) -> EndpointWithSecret | ErrorBody | None:
    """ A new signing secret (in the answer, only there). For 24 hours deliveries carry a signature
    by the previous secret beside the new one, so receivers switch without losing any.

    Args:
        endpoint (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointWithSecret | ErrorBody
     """


    return (await asyncio_detailed(
        endpoint=endpoint,
client=client,

    )).parsed
