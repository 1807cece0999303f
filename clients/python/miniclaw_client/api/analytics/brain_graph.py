from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.brain_graph import BrainGraph
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    limit: int | Unset = UNSET,
    seed: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["seed"] = seed


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/brain-graph".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BrainGraph | ErrorBody | None:
    if response.status_code == 200:
        response_200 = BrainGraph.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BrainGraph | ErrorBody]:
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
    limit: int | Unset = UNSET,
    seed: int | Unset = UNSET,

) -> Response[BrainGraph | ErrorBody]:
    """ The agent's brain graph: its most important live memories placed in 3-D by PCA of their
    embeddings (power iteration, 50 iterations, with deflation), clustered by K-Means on the
    normalised embeddings (k = round(√(n/2)), 1–12, at most 30 iterations), joined where their
    cosine similarity is above 0.5 (each keeping its 5 nearest), clusters named by their most
    frequent words. Key scope: `memories:read`.

    Args:
        id (UUID):
        limit (int | Unset):
        seed (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrainGraph | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
limit=limit,
seed=seed,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    seed: int | Unset = UNSET,

) -> BrainGraph | ErrorBody | None:
    """ The agent's brain graph: its most important live memories placed in 3-D by PCA of their
    embeddings (power iteration, 50 iterations, with deflation), clustered by K-Means on the
    normalised embeddings (k = round(√(n/2)), 1–12, at most 30 iterations), joined where their
    cosine similarity is above 0.5 (each keeping its 5 nearest), clusters named by their most
    frequent words. Key scope: `memories:read`.

    Args:
        id (UUID):
        limit (int | Unset):
        seed (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrainGraph | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
limit=limit,
seed=seed,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    seed: int | Unset = UNSET,

) -> Response[BrainGraph | ErrorBody]:
    """ The agent's brain graph: its most important live memories placed in 3-D by PCA of their
    embeddings (power iteration, 50 iterations, with deflation), clustered by K-Means on the
    normalised embeddings (k = round(√(n/2)), 1–12, at most 30 iterations), joined where their
    cosine similarity is above 0.5 (each keeping its 5 nearest), clusters named by their most
    frequent words. Key scope: `memories:read`.

    Args:
        id (UUID):
        limit (int | Unset):
        seed (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrainGraph | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
limit=limit,
seed=seed,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    seed: int | Unset = UNSET,

) -> BrainGraph | ErrorBody | None:
    """ The agent's brain graph: its most important live memories placed in 3-D by PCA of their
    embeddings (power iteration, 50 iterations, with deflation), clustered by K-Means on the
    normalised embeddings (k = round(√(n/2)), 1–12, at most 30 iterations), joined where their
    cosine similarity is above 0.5 (each keeping its 5 nearest), clusters named by their most
    frequent words. Key scope: `memories:read`.

    Args:
        id (UUID):
        limit (int | Unset):
        seed (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrainGraph | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
limit=limit,
seed=seed,

    )).parsed
