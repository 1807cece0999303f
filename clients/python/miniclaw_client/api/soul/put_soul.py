from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.soul_input import SoulInput
from ...models.soul_version import SoulVersion
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: SoulInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/hosted-agents/{id}/soul".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | SoulVersion | None:
    if response.status_code == 200:
        response_200 = SoulVersion.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | SoulVersion]:
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
    body: SoulInput,

) -> Response[ErrorBody | SoulVersion]:
    """ Writes a new soul version. An owner session's edit is stored as is; a key's rewrite passes
    the guard model (always, for a key; at most 5 proposals an hour, else 429; instruction
    overrides and hostile instructions are always refused) and is 422 `soul_rejected` with the
    reason when refused. Key scope: `soul:write`.

    Args:
        id (UUID):
        body (SoulInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SoulVersion]
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
    body: SoulInput,

) -> ErrorBody | SoulVersion | None:
    """ Writes a new soul version. An owner session's edit is stored as is; a key's rewrite passes
    the guard model (always, for a key; at most 5 proposals an hour, else 429; instruction
    overrides and hostile instructions are always refused) and is 422 `soul_rejected` with the
    reason when refused. Key scope: `soul:write`.

    Args:
        id (UUID):
        body (SoulInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SoulVersion
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
    body: SoulInput,

) -> Response[ErrorBody | SoulVersion]:
    """ Writes a new soul version. An owner session's edit is stored as is; a key's rewrite passes
    the guard model (always, for a key; at most 5 proposals an hour, else 429; instruction
    overrides and hostile instructions are always refused) and is 422 `soul_rejected` with the
    reason when refused. Key scope: `soul:write`.

    Args:
        id (UUID):
        body (SoulInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SoulVersion]
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
    body: SoulInput,

) -> ErrorBody | SoulVersion | None:
    """ Writes a new soul version. An owner session's edit is stored as is; a key's rewrite passes
    the guard model (always, for a key; at most 5 proposals an hour, else 429; instruction
    overrides and hostile instructions are always refused) and is 422 `soul_rejected` with the
    reason when refused. Key scope: `soul:write`.

    Args:
        id (UUID):
        body (SoulInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SoulVersion
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
