from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.chat_message import ChatMessage
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    cid: UUID,
    *,
    include_superseded: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_miniclaw_user, Unset):
        headers["X-Miniclaw-User"] = x_miniclaw_user



    

    params: dict[str, Any] = {}

    params["include_superseded"] = include_superseded

    params["limit"] = limit

    json_before: str | Unset = UNSET
    if not isinstance(before, Unset):
        json_before = str(before)
    params["before"] = json_before


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/conversations/{cid}/messages".format(id=quote(str(id), safe=""),cid=quote(str(cid), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | list[ChatMessage] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = ChatMessage.from_dict(response_200_item_data)



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | list[ChatMessage]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    cid: UUID,
    *,
    client: AuthenticatedClient,
    include_superseded: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | list[ChatMessage]]:
    """ A page of a conversation's messages in reading order (a reply right after the message it
    answers), each with its status and, for replies, the metadata. Without `before` the newest
    page; `X-Next-Before` names the page before it. Key scope: `chat:read`.

    Args:
        id (UUID):
        cid (UUID):
        include_superseded (bool | Unset):
        limit (int | Unset):
        before (UUID | Unset):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[ChatMessage]]
     """


    kwargs = _get_kwargs(
        id=id,
cid=cid,
include_superseded=include_superseded,
limit=limit,
before=before,
x_miniclaw_user=x_miniclaw_user,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    cid: UUID,
    *,
    client: AuthenticatedClient,
    include_superseded: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ErrorBody | list[ChatMessage] | None:
    """ A page of a conversation's messages in reading order (a reply right after the message it
    answers), each with its status and, for replies, the metadata. Without `before` the newest
    page; `X-Next-Before` names the page before it. Key scope: `chat:read`.

    Args:
        id (UUID):
        cid (UUID):
        include_superseded (bool | Unset):
        limit (int | Unset):
        before (UUID | Unset):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[ChatMessage]
     """


    return sync_detailed(
        id=id,
cid=cid,
client=client,
include_superseded=include_superseded,
limit=limit,
before=before,
x_miniclaw_user=x_miniclaw_user,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    cid: UUID,
    *,
    client: AuthenticatedClient,
    include_superseded: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | list[ChatMessage]]:
    """ A page of a conversation's messages in reading order (a reply right after the message it
    answers), each with its status and, for replies, the metadata. Without `before` the newest
    page; `X-Next-Before` names the page before it. Key scope: `chat:read`.

    Args:
        id (UUID):
        cid (UUID):
        include_superseded (bool | Unset):
        limit (int | Unset):
        before (UUID | Unset):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[ChatMessage]]
     """


    kwargs = _get_kwargs(
        id=id,
cid=cid,
include_superseded=include_superseded,
limit=limit,
before=before,
x_miniclaw_user=x_miniclaw_user,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    cid: UUID,
    *,
    client: AuthenticatedClient,
    include_superseded: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ErrorBody | list[ChatMessage] | None:
    """ A page of a conversation's messages in reading order (a reply right after the message it
    answers), each with its status and, for replies, the metadata. Without `before` the newest
    page; `X-Next-Before` names the page before it. Key scope: `chat:read`.

    Args:
        id (UUID):
        cid (UUID):
        include_superseded (bool | Unset):
        limit (int | Unset):
        before (UUID | Unset):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[ChatMessage]
     """


    return (await asyncio_detailed(
        id=id,
cid=cid,
client=client,
include_superseded=include_superseded,
limit=limit,
before=before,
x_miniclaw_user=x_miniclaw_user,

    )).parsed
