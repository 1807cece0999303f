from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.identity import Identity
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/identity/register".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Identity | None:
    if response.status_code == 202:
        response_202 = Identity.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Identity]:
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

) -> Response[ErrorBody | Identity]:
    """ Registers the agent on the configured chain's IdentityRegistry: creates the agent's wallet
    if it has none, marks the identity `pending` and queues the registration job (202). The
    wallet pays the gas: fund it first, or the registration ends `failed` with the node's
    reason. A pending registration that is `stalled` (its job gave up retrying an unreachable
    node) is resumed without a second registration. 409 when registered already or pending with
    its job at work; 422 `chain_not_configured` without a chain,
    `master_key_required` without a configured master key. Key scope: `identity:write`.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Identity]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Identity | None:
    """ Registers the agent on the configured chain's IdentityRegistry: creates the agent's wallet
    if it has none, marks the identity `pending` and queues the registration job (202). The
    wallet pays the gas: fund it first, or the registration ends `failed` with the node's
    reason. A pending registration that is `stalled` (its job gave up retrying an unreachable
    node) is resumed without a second registration. 409 when registered already or pending with
    its job at work; 422 `chain_not_configured` without a chain,
    `master_key_required` without a configured master key. Key scope: `identity:write`.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Identity
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Identity]:
    """ Registers the agent on the configured chain's IdentityRegistry: creates the agent's wallet
    if it has none, marks the identity `pending` and queues the registration job (202). The
    wallet pays the gas: fund it first, or the registration ends `failed` with the node's
    reason. A pending registration that is `stalled` (its job gave up retrying an unreachable
    node) is resumed without a second registration. 409 when registered already or pending with
    its job at work; 422 `chain_not_configured` without a chain,
    `master_key_required` without a configured master key. Key scope: `identity:write`.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Identity]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Identity | None:
    """ Registers the agent on the configured chain's IdentityRegistry: creates the agent's wallet
    if it has none, marks the identity `pending` and queues the registration job (202). The
    wallet pays the gas: fund it first, or the registration ends `failed` with the node's
    reason. A pending registration that is `stalled` (its job gave up retrying an unreachable
    node) is resumed without a second registration. 409 when registered already or pending with
    its job at work; 422 `chain_not_configured` without a chain,
    `master_key_required` without a configured master key. Key scope: `identity:write`.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Identity
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
