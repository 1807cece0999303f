from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.comparison import Comparison
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    period: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["period"] = period


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/pipeline-comparison".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Comparison | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Comparison.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Comparison | ErrorBody]:
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
    period: int | Unset = UNSET,

) -> Response[Comparison | ErrorBody]:
    """ The last `period` days (default 7) against the `period` days before, over 14 metrics (cost,
    latency, extraction, dedup, quality, volume): each value, the delta, the change in percent,
    and whether it is an improvement for that metric. Key scope: `analytics:read`.

    Args:
        id (UUID):
        period (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Comparison | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
period=period,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    period: int | Unset = UNSET,

) -> Comparison | ErrorBody | None:
    """ The last `period` days (default 7) against the `period` days before, over 14 metrics (cost,
    latency, extraction, dedup, quality, volume): each value, the delta, the change in percent,
    and whether it is an improvement for that metric. Key scope: `analytics:read`.

    Args:
        id (UUID):
        period (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Comparison | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
period=period,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    period: int | Unset = UNSET,

) -> Response[Comparison | ErrorBody]:
    """ The last `period` days (default 7) against the `period` days before, over 14 metrics (cost,
    latency, extraction, dedup, quality, volume): each value, the delta, the change in percent,
    and whether it is an improvement for that metric. Key scope: `analytics:read`.

    Args:
        id (UUID):
        period (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Comparison | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
period=period,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    period: int | Unset = UNSET,

) -> Comparison | ErrorBody | None:
    """ The last `period` days (default 7) against the `period` days before, over 14 metrics (cost,
    latency, extraction, dedup, quality, volume): each value, the delta, the change in percent,
    and whether it is an improvement for that metric. Key scope: `analytics:read`.

    Args:
        id (UUID):
        period (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Comparison | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
period=period,

    )).parsed
