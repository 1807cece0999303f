from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.import_ import Import
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    import_id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/memory-imports/{import_id}".format(id=quote(str(id), safe=""),import_id=quote(str(import_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Import | None:
    if response.status_code == 200:
        response_200 = Import.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Import]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    import_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Import]:
    """ One import and how far it got. Key scope: `memories:read`.

    Args:
        id (UUID):
        import_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Import]
     """


    kwargs = _get_kwargs(
        id=id,
import_id=import_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    import_id: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Import | None:
    """ One import and how far it got. Key scope: `memories:read`.

    Args:
        id (UUID):
        import_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Import
     """


    return sync_detailed(
        id=id,
import_id=import_id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    import_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Import]:
    """ One import and how far it got. Key scope: `memories:read`.

    Args:
        id (UUID):
        import_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Import]
     """


    kwargs = _get_kwargs(
        id=id,
import_id=import_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    import_id: UUID,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Import | None:
    """ One import and how far it got. Key scope: `memories:read`.

    Args:
        id (UUID):
        import_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Import
     """


    return (await asyncio_detailed(
        id=id,
import_id=import_id,
client=client,

    )).parsed
