from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.handled import Handled
from ...models.update import Update
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: Update,
    x_telegram_bot_api_secret_token: str,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Telegram-Bot-Api-Secret-Token"] = x_telegram_bot_api_secret_token



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/telegram/{id}".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Handled | None:
    if response.status_code == 200:
        response_200 = Handled.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 502:
        response_502 = ErrorBody.from_dict(response.json())



        return response_502

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Handled]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: Update,
    x_telegram_bot_api_secret_token: str,

) -> Response[ErrorBody | Handled]:
    """ Telegram delivers the bot's updates here. The `X-Telegram-Bot-Api-Secret-Token` header must
    be the secret registered with `setWebhook` (401 otherwise; nothing reaches the agent). A
    message is recorded with the job that answers it (`received`): the job runs it through the
    agent's chat pipeline (channel `telegram`) and sends the reply with `sendMessage`.
    `/start <link code>` links the owner's chat for notifications. A redelivered update (same
    `update_id`) changes nothing. 404 when the agent has no bot.

    Args:
        id (UUID):
        x_telegram_bot_api_secret_token (str):
        body (Update): A Telegram update (the fields miniclaw reads).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Handled]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
x_telegram_bot_api_secret_token=x_telegram_bot_api_secret_token,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: Update,
    x_telegram_bot_api_secret_token: str,

) -> ErrorBody | Handled | None:
    """ Telegram delivers the bot's updates here. The `X-Telegram-Bot-Api-Secret-Token` header must
    be the secret registered with `setWebhook` (401 otherwise; nothing reaches the agent). A
    message is recorded with the job that answers it (`received`): the job runs it through the
    agent's chat pipeline (channel `telegram`) and sends the reply with `sendMessage`.
    `/start <link code>` links the owner's chat for notifications. A redelivered update (same
    `update_id`) changes nothing. 404 when the agent has no bot.

    Args:
        id (UUID):
        x_telegram_bot_api_secret_token (str):
        body (Update): A Telegram update (the fields miniclaw reads).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Handled
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
x_telegram_bot_api_secret_token=x_telegram_bot_api_secret_token,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: Update,
    x_telegram_bot_api_secret_token: str,

) -> Response[ErrorBody | Handled]:
    """ Telegram delivers the bot's updates here. The `X-Telegram-Bot-Api-Secret-Token` header must
    be the secret registered with `setWebhook` (401 otherwise; nothing reaches the agent). A
    message is recorded with the job that answers it (`received`): the job runs it through the
    agent's chat pipeline (channel `telegram`) and sends the reply with `sendMessage`.
    `/start <link code>` links the owner's chat for notifications. A redelivered update (same
    `update_id`) changes nothing. 404 when the agent has no bot.

    Args:
        id (UUID):
        x_telegram_bot_api_secret_token (str):
        body (Update): A Telegram update (the fields miniclaw reads).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Handled]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
x_telegram_bot_api_secret_token=x_telegram_bot_api_secret_token,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: Update,
    x_telegram_bot_api_secret_token: str,

) -> ErrorBody | Handled | None:
    """ Telegram delivers the bot's updates here. The `X-Telegram-Bot-Api-Secret-Token` header must
    be the secret registered with `setWebhook` (401 otherwise; nothing reaches the agent). A
    message is recorded with the job that answers it (`received`): the job runs it through the
    agent's chat pipeline (channel `telegram`) and sends the reply with `sendMessage`.
    `/start <link code>` links the owner's chat for notifications. A redelivered update (same
    `update_id`) changes nothing. 404 when the agent has no bot.

    Args:
        id (UUID):
        x_telegram_bot_api_secret_token (str):
        body (Update): A Telegram update (the fields miniclaw reads).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Handled
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
x_telegram_bot_api_secret_token=x_telegram_bot_api_secret_token,

    )).parsed
