from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.feedback import Feedback
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_miniclaw_user, Unset):
        headers["X-Miniclaw-User"] = x_miniclaw_user



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/conversations/{cid}/messages/{mid}/feedback".format(id=quote(str(id), safe=""),cid=quote(str(cid), safe=""),mid=quote(str(mid), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Feedback | None:
    if response.status_code == 200:
        response_200 = Feedback.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Feedback]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | Feedback]:
    """ The feedback a reply has (404 when it has none). Key scope: `chat:read`.

    Args:
        id (UUID):
        cid (UUID):
        mid (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Feedback]
     """


    kwargs = _get_kwargs(
        id=id,
cid=cid,
mid=mid,
x_miniclaw_user=x_miniclaw_user,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ErrorBody | Feedback | None:
    """ The feedback a reply has (404 when it has none). Key scope: `chat:read`.

    Args:
        id (UUID):
        cid (UUID):
        mid (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Feedback
     """


    return sync_detailed(
        id=id,
cid=cid,
mid=mid,
client=client,
x_miniclaw_user=x_miniclaw_user,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | Feedback]:
    """ The feedback a reply has (404 when it has none). Key scope: `chat:read`.

    Args:
        id (UUID):
        cid (UUID):
        mid (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Feedback]
     """


    kwargs = _get_kwargs(
        id=id,
cid=cid,
mid=mid,
x_miniclaw_user=x_miniclaw_user,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ErrorBody | Feedback | None:
    """ The feedback a reply has (404 when it has none). Key scope: `chat:read`.

    Args:
        id (UUID):
        cid (UUID):
        mid (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Feedback
     """


    return (await asyncio_detailed(
        id=id,
cid=cid,
mid=mid,
client=client,
x_miniclaw_user=x_miniclaw_user,

    )).parsed
