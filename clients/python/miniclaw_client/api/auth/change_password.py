from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.password_change import PasswordChange
from ...models.password_changed import PasswordChanged
from typing import cast



def _get_kwargs(
    *,
    body: PasswordChange,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/auth/password",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | PasswordChanged | None:
    if response.status_code == 200:
        response_200 = PasswordChanged.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | PasswordChanged]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PasswordChange,

) -> Response[ErrorBody | PasswordChanged]:
    """ Changes the signed-in owner's password. The current one must be given (403
    `wrong_password`); every other session of the owner ends. 422 `no_password` for an account
    that signs in with a wallet.

    Args:
        body (PasswordChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PasswordChanged]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: PasswordChange,

) -> ErrorBody | PasswordChanged | None:
    """ Changes the signed-in owner's password. The current one must be given (403
    `wrong_password`); every other session of the owner ends. 422 `no_password` for an account
    that signs in with a wallet.

    Args:
        body (PasswordChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PasswordChanged
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PasswordChange,

) -> Response[ErrorBody | PasswordChanged]:
    """ Changes the signed-in owner's password. The current one must be given (403
    `wrong_password`); every other session of the owner ends. 422 `no_password` for an account
    that signs in with a wallet.

    Args:
        body (PasswordChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PasswordChanged]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PasswordChange,

) -> ErrorBody | PasswordChanged | None:
    """ Changes the signed-in owner's password. The current one must be given (403
    `wrong_password`); every other session of the owner ends. 422 `no_password` for an account
    that signs in with a wallet.

    Args:
        body (PasswordChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PasswordChanged
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
