from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.search_request import SearchRequest
from ...models.search_response import SearchResponse
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: SearchRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/memories/search".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | SearchResponse | None:
    if response.status_code == 200:
        response_200 = SearchResponse.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | SearchResponse]:
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
    body: SearchRequest,

) -> Response[ErrorBody | SearchResponse]:
    """ Hybrid search: BM25 and vector candidates, `min(1, 0.5*bm25 + 0.5*semantic + 0.05*prominence) +
    0.3*time` (1 for a memory of the day the query names, "on 29 Dec 2023", "on 25.01.2024"; 1/3
    within a longer time it names, "last week", "in May"), each
    result with its signals and the paths that found it, and an explanation of what was
    searched (and, for an empty result, why). `rerank: true` adds the rerank model. Key scope:
    `memories:read`.

    Args:
        id (UUID):
        body (SearchRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SearchResponse]
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
    body: SearchRequest,

) -> ErrorBody | SearchResponse | None:
    """ Hybrid search: BM25 and vector candidates, `min(1, 0.5*bm25 + 0.5*semantic + 0.05*prominence) +
    0.3*time` (1 for a memory of the day the query names, "on 29 Dec 2023", "on 25.01.2024"; 1/3
    within a longer time it names, "last week", "in May"), each
    result with its signals and the paths that found it, and an explanation of what was
    searched (and, for an empty result, why). `rerank: true` adds the rerank model. Key scope:
    `memories:read`.

    Args:
        id (UUID):
        body (SearchRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SearchResponse
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
    body: SearchRequest,

) -> Response[ErrorBody | SearchResponse]:
    """ Hybrid search: BM25 and vector candidates, `min(1, 0.5*bm25 + 0.5*semantic + 0.05*prominence) +
    0.3*time` (1 for a memory of the day the query names, "on 29 Dec 2023", "on 25.01.2024"; 1/3
    within a longer time it names, "last week", "in May"), each
    result with its signals and the paths that found it, and an explanation of what was
    searched (and, for an empty result, why). `rerank: true` adds the rerank model. Key scope:
    `memories:read`.

    Args:
        id (UUID):
        body (SearchRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SearchResponse]
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
    body: SearchRequest,

) -> ErrorBody | SearchResponse | None:
    """ Hybrid search: BM25 and vector candidates, `min(1, 0.5*bm25 + 0.5*semantic + 0.05*prominence) +
    0.3*time` (1 for a memory of the day the query names, "on 29 Dec 2023", "on 25.01.2024"; 1/3
    within a longer time it names, "last week", "in May"), each
    result with its signals and the paths that found it, and an explanation of what was
    searched (and, for an empty result, why). `rerank: true` adds the rerank model. Key scope:
    `memories:read`.

    Args:
        id (UUID):
        body (SearchRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SearchResponse
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
