from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.thread import Thread
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    status: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["status"] = status

    params["limit"] = limit

    json_before: str | Unset = UNSET
    if not isinstance(before, Unset):
        json_before = str(before)
    params["before"] = json_before


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/outreach".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | list[Thread] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = Thread.from_dict(response_200_item_data)



            response_200.append(response_200_item)

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | list[Thread]]:
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
    status: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,

) -> Response[ErrorBody | list[Thread]]:
    """ The agent's outreach, newest first; paged (`X-Next-Before`). A key sees the threads active in
    the last 30 days; the owner sees them all. Key scope: `outreach:read`.

    Args:
        id (UUID):
        status (str | Unset):
        limit (int | Unset):
        before (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[Thread]]
     """


    kwargs = _get_kwargs(
        id=id,
status=status,
limit=limit,
before=before,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,

) -> ErrorBody | list[Thread] | None:
    """ The agent's outreach, newest first; paged (`X-Next-Before`). A key sees the threads active in
    the last 30 days; the owner sees them all. Key scope: `outreach:read`.

    Args:
        id (UUID):
        status (str | Unset):
        limit (int | Unset):
        before (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[Thread]
     """


    return sync_detailed(
        id=id,
client=client,
status=status,
limit=limit,
before=before,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,

) -> Response[ErrorBody | list[Thread]]:
    """ The agent's outreach, newest first; paged (`X-Next-Before`). A key sees the threads active in
    the last 30 days; the owner sees them all. Key scope: `outreach:read`.

    Args:
        id (UUID):
        status (str | Unset):
        limit (int | Unset):
        before (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[Thread]]
     """


    kwargs = _get_kwargs(
        id=id,
status=status,
limit=limit,
before=before,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,

) -> ErrorBody | list[Thread] | None:
    """ The agent's outreach, newest first; paged (`X-Next-Before`). A key sees the threads active in
    the last 30 days; the owner sees them all. Key scope: `outreach:read`.

    Args:
        id (UUID):
        status (str | Unset):
        limit (int | Unset):
        before (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[Thread]
     """


    return (await asyncio_detailed(
        id=id,
client=client,
status=status,
limit=limit,
before=before,

    )).parsed
