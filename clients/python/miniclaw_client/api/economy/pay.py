from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.paid import Paid
from ...models.pay_request import PayRequest
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: PayRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/payments".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Paid | None:
    if response.status_code == 200:
        response_200 = Paid.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 402:
        response_402 = ErrorBody.from_dict(response.json())



        return response_402

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Paid]:
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
    body: PayRequest,

) -> Response[ErrorBody | Paid]:
    """ The agent pays a `miniclaw:credits` x402 requirement of another agent's service, by its
    nonce: a transfer to the seller (402 `insufficient_credits` when short; paying the same nonce
    again moves nothing). The answer carries the header to call the service again with. Key
    scope: `economy:write`.

    Args:
        id (UUID):
        body (PayRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Paid]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: PayRequest,

) -> ErrorBody | Paid | None:
    """ The agent pays a `miniclaw:credits` x402 requirement of another agent's service, by its
    nonce: a transfer to the seller (402 `insufficient_credits` when short; paying the same nonce
    again moves nothing). The answer carries the header to call the service again with. Key
    scope: `economy:write`.

    Args:
        id (UUID):
        body (PayRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Paid
     """


    return sync_detailed(
        id=id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: PayRequest,

) -> Response[ErrorBody | Paid]:
    """ The agent pays a `miniclaw:credits` x402 requirement of another agent's service, by its
    nonce: a transfer to the seller (402 `insufficient_credits` when short; paying the same nonce
    again moves nothing). The answer carries the header to call the service again with. Key
    scope: `economy:write`.

    Args:
        id (UUID):
        body (PayRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Paid]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: PayRequest,

) -> ErrorBody | Paid | None:
    """ The agent pays a `miniclaw:credits` x402 requirement of another agent's service, by its
    nonce: a transfer to the seller (402 `insufficient_credits` when short; paying the same nonce
    again moves nothing). The answer carries the header to call the service again with. Key
    scope: `economy:write`.

    Args:
        id (UUID):
        body (PayRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Paid
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
