from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.reply_event import ReplyEvent
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_miniclaw_user, Unset):
        headers["X-Miniclaw-User"] = x_miniclaw_user



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/events".format(id=quote(str(id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ReplyEvent | None:
    if response.status_code == 200:
        response_200 = ReplyEvent.from_dict(response.text)



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

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ReplyEvent]:
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
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | ReplyEvent]:
    """ The agent's events as Server-Sent Events, for as long as the client stays: `ready` once,
    then a `reply` event (a `ReplyEvent`) whenever a reply the request may see starts
    (`streaming`) or ends (`complete`, `error`, `superseded`), whichever server process runs it;
    follow a started reply with its stream. Events from while a client was away are not
    replayed: list the conversations to catch up. A client too slow to keep up gets `lagged`
    with how many it missed. The stream ends when the server shuts down. 429 with `Retry-After`
    beyond `MINICLAW_EVENT_STREAMS_PER_AGENT` streams for the agent on one server. Key scope:
    `chat:read`.

    Args:
        id (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ReplyEvent]
     """


    kwargs = _get_kwargs(
        id=id,
x_miniclaw_user=x_miniclaw_user,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ErrorBody | ReplyEvent | None:
    """ The agent's events as Server-Sent Events, for as long as the client stays: `ready` once,
    then a `reply` event (a `ReplyEvent`) whenever a reply the request may see starts
    (`streaming`) or ends (`complete`, `error`, `superseded`), whichever server process runs it;
    follow a started reply with its stream. Events from while a client was away are not
    replayed: list the conversations to catch up. A client too slow to keep up gets `lagged`
    with how many it missed. The stream ends when the server shuts down. 429 with `Retry-After`
    beyond `MINICLAW_EVENT_STREAMS_PER_AGENT` streams for the agent on one server. Key scope:
    `chat:read`.

    Args:
        id (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ReplyEvent
     """


    return sync_detailed(
        id=id,
client=client,
x_miniclaw_user=x_miniclaw_user,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | ReplyEvent]:
    """ The agent's events as Server-Sent Events, for as long as the client stays: `ready` once,
    then a `reply` event (a `ReplyEvent`) whenever a reply the request may see starts
    (`streaming`) or ends (`complete`, `error`, `superseded`), whichever server process runs it;
    follow a started reply with its stream. Events from while a client was away are not
    replayed: list the conversations to catch up. A client too slow to keep up gets `lagged`
    with how many it missed. The stream ends when the server shuts down. 429 with `Retry-After`
    beyond `MINICLAW_EVENT_STREAMS_PER_AGENT` streams for the agent on one server. Key scope:
    `chat:read`.

    Args:
        id (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ReplyEvent]
     """


    kwargs = _get_kwargs(
        id=id,
x_miniclaw_user=x_miniclaw_user,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ErrorBody | ReplyEvent | None:
    """ The agent's events as Server-Sent Events, for as long as the client stays: `ready` once,
    then a `reply` event (a `ReplyEvent`) whenever a reply the request may see starts
    (`streaming`) or ends (`complete`, `error`, `superseded`), whichever server process runs it;
    follow a started reply with its stream. Events from while a client was away are not
    replayed: list the conversations to catch up. A client too slow to keep up gets `lagged`
    with how many it missed. The stream ends when the server shuts down. 429 with `Retry-After`
    beyond `MINICLAW_EVENT_STREAMS_PER_AGENT` streams for the agent on one server. Key scope:
    `chat:read`.

    Args:
        id (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ReplyEvent
     """


    return (await asyncio_detailed(
        id=id,
client=client,
x_miniclaw_user=x_miniclaw_user,

    )).parsed
