from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.connect_input import ConnectInput
from ...models.error_body import ErrorBody
from ...models.telegram_status import TelegramStatus
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: ConnectInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/hosted-agents/{id}/telegram".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | TelegramStatus | None:
    if response.status_code == 200:
        response_200 = TelegramStatus.from_dict(response.json())



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

    if response.status_code == 502:
        response_502 = ErrorBody.from_dict(response.json())



        return response_502

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | TelegramStatus]:
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
    body: ConnectInput,

) -> Response[ErrorBody | TelegramStatus]:
    """ Connects the agent's bot: `getMe` checks the token, `setWebhook` points the bot at
    `/webhooks/telegram/{id}` with a new secret token, and the token is sealed under the master
    key. Send `/start <link_code>` to the bot to get notifications there. 400 for a token of the
    wrong shape, 422 when Telegram refuses it, 502 when the Bot API cannot be reached. Owner only.

    Args:
        id (UUID):
        body (ConnectInput): The bot token to connect with.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TelegramStatus]
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
    body: ConnectInput,

) -> ErrorBody | TelegramStatus | None:
    """ Connects the agent's bot: `getMe` checks the token, `setWebhook` points the bot at
    `/webhooks/telegram/{id}` with a new secret token, and the token is sealed under the master
    key. Send `/start <link_code>` to the bot to get notifications there. 400 for a token of the
    wrong shape, 422 when Telegram refuses it, 502 when the Bot API cannot be reached. Owner only.

    Args:
        id (UUID):
        body (ConnectInput): The bot token to connect with.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TelegramStatus
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
    body: ConnectInput,

) -> Response[ErrorBody | TelegramStatus]:
    """ Connects the agent's bot: `getMe` checks the token, `setWebhook` points the bot at
    `/webhooks/telegram/{id}` with a new secret token, and the token is sealed under the master
    key. Send `/start <link_code>` to the bot to get notifications there. 400 for a token of the
    wrong shape, 422 when Telegram refuses it, 502 when the Bot API cannot be reached. Owner only.

    Args:
        id (UUID):
        body (ConnectInput): The bot token to connect with.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TelegramStatus]
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
    body: ConnectInput,

) -> ErrorBody | TelegramStatus | None:
    """ Connects the agent's bot: `getMe` checks the token, `setWebhook` points the bot at
    `/webhooks/telegram/{id}` with a new secret token, and the token is sealed under the master
    key. Send `/start <link_code>` to the bot to get notifications there. 400 for a token of the
    wrong shape, 422 when Telegram refuses it, 502 when the Bot API cannot be reached. Owner only.

    Args:
        id (UUID):
        body (ConnectInput): The bot token to connect with.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TelegramStatus
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
