from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.thread_detail import ThreadDetail
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    oid: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/outreach/{oid}".format(id=quote(str(id), safe=""),oid=quote(str(oid), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ThreadDetail | None:
    if response.status_code == 200:
        response_200 = ThreadDetail.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ThreadDetail]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    oid: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | ThreadDetail]:
    """ One outreach with its emails (direction, headers, status), oldest first; for a key, 404 when
    the thread was last active over 30 days ago. Key scope: `outreach:read`.

    Args:
        id (UUID):
        oid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ThreadDetail]
     """


    kwargs = _get_kwargs(
        id=id,
oid=oid,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    oid: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | ThreadDetail | None:
    """ One outreach with its emails (direction, headers, status), oldest first; for a key, 404 when
    the thread was last active over 30 days ago. Key scope: `outreach:read`.

    Args:
        id (UUID):
        oid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ThreadDetail
     """


    return sync_detailed(
        id=id,
oid=oid,
client=client,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    oid: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | ThreadDetail]:
    """ One outreach with its emails (direction, headers, status), oldest first; for a key, 404 when
    the thread was last active over 30 days ago. Key scope: `outreach:read`.

    Args:
        id (UUID):
        oid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ThreadDetail]
     """


    kwargs = _get_kwargs(
        id=id,
oid=oid,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    oid: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | ThreadDetail | None:
    """ One outreach with its emails (direction, headers, status), oldest first; for a key, 404 when
    the thread was last active over 30 days ago. Key scope: `outreach:read`.

    Args:
        id (UUID):
        oid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ThreadDetail
     """


    return (await asyncio_detailed(
        id=id,
oid=oid,
client=client,

    )).parsed
