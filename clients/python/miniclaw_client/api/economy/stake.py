from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.stake import Stake
from ...models.stake_request import StakeRequest
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: StakeRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/stakes".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Stake | None:
    if response.status_code == 200:
        response_200 = Stake.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = Stake.from_dict(response.json())



        return response_201

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

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

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
    *,
    client: AuthenticatedClient,
    body: StakeRequest,

) -> Response[ErrorBody | Stake]:
    """ Stakes credits behind an agent (default this one) or a skill, on a topic: from this agent, or
    (`from: owner`, owner session) from the owner. The credits are held until the stake is
    validated (returned), slashed (lost to the sink) or withdrawn. Conviction =
    amount × (1 − 2^(−age/7 days)). Key scope: `economy:write`.

    Args:
        id (UUID):
        body (StakeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Stake]
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
    body: StakeRequest,

) -> ErrorBody | Stake | None:
    """ Stakes credits behind an agent (default this one) or a skill, on a topic: from this agent, or
    (`from: owner`, owner session) from the owner. The credits are held until the stake is
    validated (returned), slashed (lost to the sink) or withdrawn. Conviction =
    amount × (1 − 2^(−age/7 days)). Key scope: `economy:write`.

    Args:
        id (UUID):
        body (StakeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Stake
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
    body: StakeRequest,

) -> Response[ErrorBody | Stake]:
    """ Stakes credits behind an agent (default this one) or a skill, on a topic: from this agent, or
    (`from: owner`, owner session) from the owner. The credits are held until the stake is
    validated (returned), slashed (lost to the sink) or withdrawn. Conviction =
    amount × (1 − 2^(−age/7 days)). Key scope: `economy:write`.

    Args:
        id (UUID):
        body (StakeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Stake]
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
    body: StakeRequest,

) -> ErrorBody | Stake | None:
    """ Stakes credits behind an agent (default this one) or a skill, on a topic: from this agent, or
    (`from: owner`, owner session) from the owner. The credits are held until the stake is
    validated (returned), slashed (lost to the sink) or withdrawn. Conviction =
    amount × (1 − 2^(−age/7 days)). Key scope: `economy:write`.

    Args:
        id (UUID):
        body (StakeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Stake
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
