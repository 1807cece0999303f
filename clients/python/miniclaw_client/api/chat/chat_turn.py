from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.chat_input import ChatInput
from ...models.chat_reply import ChatReply
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: ChatInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_miniclaw_user, Unset):
        headers["X-Miniclaw-User"] = x_miniclaw_user



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/chat".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChatReply | ErrorBody | None:
    if response.status_code == 200:
        response_200 = ChatReply.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if response.status_code == 502:
        response_502 = ErrorBody.from_dict(response.json())



        return response_502

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChatReply | ErrorBody]:
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
    body: ChatInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ChatReply | ErrorBody]:
    """ Sends a message to the agent. The message is stored before any model call; the reply comes
    as JSON, or as Server-Sent Events with `Accept: text/event-stream` (`start`, `token`s with
    ids `<message id>:<byte offset>`, then `done` with the metadata, or `error`). Sending the
    same request with `Last-Event-ID` resumes that reply instead of starting a new turn. Over
    the agent's daily token budget: 429 `budget_exhausted` with the reset time; the operator's
    kill switch or the platform's daily spending cap: 503 (`kill_switch`, `global_spend_cap`).
    Refused, nothing is stored. A new conversation is for the end user the request acts for
    (`X-Miniclaw-User`, or the key's binding); an existing one must be that end user's (404
    otherwise). Starting a conversation beyond `MINICLAW_CONVERSATIONS_PER_AGENT` is 409. Key
    scope: `chat:write`.

    Args:
        id (UUID):
        x_miniclaw_user (None | str | Unset):
        body (ChatInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChatReply | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
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
    body: ChatInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ChatReply | ErrorBody | None:
    """ Sends a message to the agent. The message is stored before any model call; the reply comes
    as JSON, or as Server-Sent Events with `Accept: text/event-stream` (`start`, `token`s with
    ids `<message id>:<byte offset>`, then `done` with the metadata, or `error`). Sending the
    same request with `Last-Event-ID` resumes that reply instead of starting a new turn. Over
    the agent's daily token budget: 429 `budget_exhausted` with the reset time; the operator's
    kill switch or the platform's daily spending cap: 503 (`kill_switch`, `global_spend_cap`).
    Refused, nothing is stored. A new conversation is for the end user the request acts for
    (`X-Miniclaw-User`, or the key's binding); an existing one must be that end user's (404
    otherwise). Starting a conversation beyond `MINICLAW_CONVERSATIONS_PER_AGENT` is 409. Key
    scope: `chat:write`.

    Args:
        id (UUID):
        x_miniclaw_user (None | str | Unset):
        body (ChatInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChatReply | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
x_miniclaw_user=x_miniclaw_user,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ChatInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ChatReply | ErrorBody]:
    """ Sends a message to the agent. The message is stored before any model call; the reply comes
    as JSON, or as Server-Sent Events with `Accept: text/event-stream` (`start`, `token`s with
    ids `<message id>:<byte offset>`, then `done` with the metadata, or `error`). Sending the
    same request with `Last-Event-ID` resumes that reply instead of starting a new turn. Over
    the agent's daily token budget: 429 `budget_exhausted` with the reset time; the operator's
    kill switch or the platform's daily spending cap: 503 (`kill_switch`, `global_spend_cap`).
    Refused, nothing is stored. A new conversation is for the end user the request acts for
    (`X-Miniclaw-User`, or the key's binding); an existing one must be that end user's (404
    otherwise). Starting a conversation beyond `MINICLAW_CONVERSATIONS_PER_AGENT` is 409. Key
    scope: `chat:write`.

    Args:
        id (UUID):
        x_miniclaw_user (None | str | Unset):
        body (ChatInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChatReply | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
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
    body: ChatInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ChatReply | ErrorBody | None:
    """ Sends a message to the agent. The message is stored before any model call; the reply comes
    as JSON, or as Server-Sent Events with `Accept: text/event-stream` (`start`, `token`s with
    ids `<message id>:<byte offset>`, then `done` with the metadata, or `error`). Sending the
    same request with `Last-Event-ID` resumes that reply instead of starting a new turn. Over
    the agent's daily token budget: 429 `budget_exhausted` with the reset time; the operator's
    kill switch or the platform's daily spending cap: 503 (`kill_switch`, `global_spend_cap`).
    Refused, nothing is stored. A new conversation is for the end user the request acts for
    (`X-Miniclaw-User`, or the key's binding); an existing one must be that end user's (404
    otherwise). Starting a conversation beyond `MINICLAW_CONVERSATIONS_PER_AGENT` is 409. Key
    scope: `chat:write`.

    Args:
        id (UUID):
        x_miniclaw_user (None | str | Unset):
        body (ChatInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChatReply | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
x_miniclaw_user=x_miniclaw_user,

    )).parsed
