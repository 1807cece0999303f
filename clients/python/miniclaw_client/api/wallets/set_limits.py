from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.limits_input import LimitsInput
from ...models.wallet import Wallet
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: LimitsInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/hosted-agents/{id}/wallet/limits".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Wallet | None:
    if response.status_code == 200:
        response_200 = Wallet.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Wallet]:
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
    body: LimitsInput,

) -> Response[ErrorBody | Wallet]:
    """ Sets the send limits: `max_per_tx_wei`, `max_per_day_wei` (any 24 hours) and
    `confirm_above_wei` (sends above it wait for the owner); `null` clears one (no per-transaction
    or per-day limit means nothing can be sent). Owner only: a key cannot raise its own limits.

    Args:
        id (UUID):
        body (LimitsInput): The owner's limits; each a decimal wei string, or `null` to clear it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Wallet]
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
    body: LimitsInput,

) -> ErrorBody | Wallet | None:
    """ Sets the send limits: `max_per_tx_wei`, `max_per_day_wei` (any 24 hours) and
    `confirm_above_wei` (sends above it wait for the owner); `null` clears one (no per-transaction
    or per-day limit means nothing can be sent). Owner only: a key cannot raise its own limits.

    Args:
        id (UUID):
        body (LimitsInput): The owner's limits; each a decimal wei string, or `null` to clear it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Wallet
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
    body: LimitsInput,

) -> Response[ErrorBody | Wallet]:
    """ Sets the send limits: `max_per_tx_wei`, `max_per_day_wei` (any 24 hours) and
    `confirm_above_wei` (sends above it wait for the owner); `null` clears one (no per-transaction
    or per-day limit means nothing can be sent). Owner only: a key cannot raise its own limits.

    Args:
        id (UUID):
        body (LimitsInput): The owner's limits; each a decimal wei string, or `null` to clear it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Wallet]
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
    body: LimitsInput,

) -> ErrorBody | Wallet | None:
    """ Sets the send limits: `max_per_tx_wei`, `max_per_day_wei` (any 24 hours) and
    `confirm_above_wei` (sends above it wait for the owner); `null` clears one (no per-transaction
    or per-day limit means nothing can be sent). Owner only: a key cannot raise its own limits.

    Args:
        id (UUID):
        body (LimitsInput): The owner's limits; each a decimal wei string, or `null` to clear it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Wallet
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
