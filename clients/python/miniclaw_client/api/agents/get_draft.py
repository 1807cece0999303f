from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.draft import Draft
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    draft: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/agents/spawn/{draft}".format(draft=quote(str(draft), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Draft | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Draft.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Draft | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    draft: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Draft | ErrorBody]:
    """ One of your drafts. Owner only.

    Args:
        draft (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Draft | ErrorBody]
     """


    kwargs = _get_kwargs(
        draft=draft,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    draft: UUID,
    *,
    client: AuthenticatedClient,

) -> Draft | ErrorBody | None:
    """ One of your drafts. Owner only.

    Args:
        draft (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Draft | ErrorBody
     """


    return sync_detailed(
        draft=draft,
client=client,

    ).parsed

async def asyncio_detailed(
    draft: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Draft | ErrorBody]:
    """ One of your drafts. Owner only.

    Args:
        draft (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Draft | ErrorBody]
     """


    kwargs = _get_kwargs(
        draft=draft,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    draft: UUID,
    *,
    client: AuthenticatedClient,

) -> Draft | ErrorBody | None:
    """ One of your drafts. Owner only.

    Args:
        draft (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Draft | ErrorBody
     """


    return (await asyncio_detailed(
        draft=draft,
client=client,

    )).parsed
