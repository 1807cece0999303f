from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.batch_efficiency import BatchEfficiency
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
        "url": "/v1/hosted-agents/{id}/batch-efficiency".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BatchEfficiency | ErrorBody | None:
    if response.status_code == 200:
        response_200 = BatchEfficiency.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BatchEfficiency | ErrorBody]:
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

) -> Response[BatchEfficiency | ErrorBody]:
    """ Extraction batching over the last `period` days (default 30): calls made, calls a
    per-message extraction would have made on top, efficiency, an estimate of the tokens saved,
    and the daily batch size, threshold and facts per extraction. Key scope: `analytics:read`.

    Args:
        id (UUID):
        period (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchEfficiency | ErrorBody]
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

) -> BatchEfficiency | ErrorBody | None:
    """ Extraction batching over the last `period` days (default 30): calls made, calls a
    per-message extraction would have made on top, efficiency, an estimate of the tokens saved,
    and the daily batch size, threshold and facts per extraction. Key scope: `analytics:read`.

    Args:
        id (UUID):
        period (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchEfficiency | ErrorBody
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

) -> Response[BatchEfficiency | ErrorBody]:
    """ Extraction batching over the last `period` days (default 30): calls made, calls a
    per-message extraction would have made on top, efficiency, an estimate of the tokens saved,
    and the daily batch size, threshold and facts per extraction. Key scope: `analytics:read`.

    Args:
        id (UUID):
        period (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchEfficiency | ErrorBody]
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

) -> BatchEfficiency | ErrorBody | None:
    """ Extraction batching over the last `period` days (default 30): calls made, calls a
    per-message extraction would have made on top, efficiency, an estimate of the tokens saved,
    and the daily batch size, threshold and facts per extraction. Key scope: `analytics:read`.

    Args:
        id (UUID):
        period (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchEfficiency | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
period=period,

    )).parsed
