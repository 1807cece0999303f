from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.key_usage import KeyUsage
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    account_key: UUID,
    *,
    days: int | None | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_days: int | None | Unset
    if isinstance(days, Unset):
        json_days = UNSET
    else:
        json_days = days
    params["days"] = json_days


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/api-keys/{account_key}/usage".format(account_key=quote(str(account_key), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | KeyUsage | None:
    if response.status_code == 200:
        response_200 = KeyUsage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | KeyUsage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    account_key: UUID,
    *,
    client: AuthenticatedClient,
    days: int | None | Unset = UNSET,

) -> Response[ErrorBody | KeyUsage]:
    """ What one of the account's keys used: its model calls day by day (calls, tokens, dollars)
    and today's dollars spent and held, as its daily cap counts them.

    Args:
        account_key (UUID):
        days (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | KeyUsage]
     """


    kwargs = _get_kwargs(
        account_key=account_key,
days=days,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    account_key: UUID,
    *,
    client: AuthenticatedClient,
    days: int | None | Unset = UNSET,

) -> ErrorBody | KeyUsage | None:
    """ What one of the account's keys used: its model calls day by day (calls, tokens, dollars)
    and today's dollars spent and held, as its daily cap counts them.

    Args:
        account_key (UUID):
        days (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | KeyUsage
     """


    return sync_detailed(
        account_key=account_key,
client=client,
days=days,

    ).parsed

async def asyncio_detailed(
    account_key: UUID,
    *,
    client: AuthenticatedClient,
    days: int | None | Unset = UNSET,

) -> Response[ErrorBody | KeyUsage]:
    """ What one of the account's keys used: its model calls day by day (calls, tokens, dollars)
    and today's dollars spent and held, as its daily cap counts them.

    Args:
        account_key (UUID):
        days (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | KeyUsage]
     """


    kwargs = _get_kwargs(
        account_key=account_key,
days=days,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    account_key: UUID,
    *,
    client: AuthenticatedClient,
    days: int | None | Unset = UNSET,

) -> ErrorBody | KeyUsage | None:
    """ What one of the account's keys used: its model calls day by day (calls, tokens, dollars)
    and today's dollars spent and held, as its daily cap counts them.

    Args:
        account_key (UUID):
        days (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | KeyUsage
     """


    return (await asyncio_detailed(
        account_key=account_key,
client=client,
days=days,

    )).parsed
