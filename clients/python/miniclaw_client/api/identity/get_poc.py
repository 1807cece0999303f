from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.poc import Poc
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/poc".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Poc | None:
    if response.status_code == 200:
        response_200 = Poc.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Poc]:
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

) -> Response[ErrorBody | Poc]:
    """ The agent's PoC score now: five 0–100 dimensions (identity 15 %, social 20 %, economy 25 %,
    skills 20 %, reputation 20 %), each its sub-signals' points out of the points they could earn
    (`available`), times the backing multiplier, rounded and clamped to 0–100, with its grade.
    Sub-signals with no source here (token prices and pools, badges, a wallet balance with no
    chain) say `"status": "not available"` with the reason in `rule`, and are left out of their
    dimension's weighting. Key scope: `agent:read`.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Poc]
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

) -> ErrorBody | Poc | None:
    """ The agent's PoC score now: five 0–100 dimensions (identity 15 %, social 20 %, economy 25 %,
    skills 20 %, reputation 20 %), each its sub-signals' points out of the points they could earn
    (`available`), times the backing multiplier, rounded and clamped to 0–100, with its grade.
    Sub-signals with no source here (token prices and pools, badges, a wallet balance with no
    chain) say `"status": "not available"` with the reason in `rule`, and are left out of their
    dimension's weighting. Key scope: `agent:read`.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Poc
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Poc]:
    """ The agent's PoC score now: five 0–100 dimensions (identity 15 %, social 20 %, economy 25 %,
    skills 20 %, reputation 20 %), each its sub-signals' points out of the points they could earn
    (`available`), times the backing multiplier, rounded and clamped to 0–100, with its grade.
    Sub-signals with no source here (token prices and pools, badges, a wallet balance with no
    chain) say `"status": "not available"` with the reason in `rule`, and are left out of their
    dimension's weighting. Key scope: `agent:read`.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Poc]
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

) -> ErrorBody | Poc | None:
    """ The agent's PoC score now: five 0–100 dimensions (identity 15 %, social 20 %, economy 25 %,
    skills 20 %, reputation 20 %), each its sub-signals' points out of the points they could earn
    (`available`), times the backing multiplier, rounded and clamped to 0–100, with its grade.
    Sub-signals with no source here (token prices and pools, badges, a wallet balance with no
    chain) say `"status": "not available"` with the reason in `rule`, and are left out of their
    dimension's weighting. Key scope: `agent:read`.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Poc
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
