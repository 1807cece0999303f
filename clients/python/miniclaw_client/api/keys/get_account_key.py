from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.account_key import AccountKey
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    account_key: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/api-keys/{account_key}".format(account_key=quote(str(account_key), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AccountKey | ErrorBody | None:
    if response.status_code == 200:
        response_200 = AccountKey.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AccountKey | ErrorBody]:
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

) -> Response[AccountKey | ErrorBody]:
    """ One of the account's keys (never its secret).

    Args:
        account_key (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccountKey | ErrorBody]
     """


    kwargs = _get_kwargs(
        account_key=account_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    account_key: UUID,
    *,
    client: AuthenticatedClient,

) -> AccountKey | ErrorBody | None:
    """ One of the account's keys (never its secret).

    Args:
        account_key (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccountKey | ErrorBody
     """


    return sync_detailed(
        account_key=account_key,
client=client,

    ).parsed

async def asyncio_detailed(
    account_key: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[AccountKey | ErrorBody]:
    """ One of the account's keys (never its secret).

    Args:
        account_key (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccountKey | ErrorBody]
     """


    kwargs = _get_kwargs(
        account_key=account_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    account_key: UUID,
    *,
    client: AuthenticatedClient,

) -> AccountKey | ErrorBody | None:
    """ One of the account's keys (never its secret).

    Args:
        account_key (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccountKey | ErrorBody
     """


    return (await asyncio_detailed(
        account_key=account_key,
client=client,

    )).parsed
