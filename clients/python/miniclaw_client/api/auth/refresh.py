from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.refresh_request import RefreshRequest
from ...models.refresh_response import RefreshResponse
from typing import cast



def _get_kwargs(
    *,
    body: RefreshRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/auth/refresh",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | RefreshResponse | None:
    if response.status_code == 200:
        response_200 = RefreshResponse.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | RefreshResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,

) -> Response[ErrorBody | RefreshResponse]:
    """ Exchanges a refresh token for a new session token (and a new refresh token). The refresh
    token presented stops working, except that for 30 seconds it yields the same answer again
    (concurrent or retried refreshes); presented after that, it signs the session out (a used
    token coming back means it was copied). With the `mc_refresh` cookie instead of a body, the
    request must carry an `X-Requested-With` header.

    Args:
        body (RefreshRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RefreshResponse]
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
    client: AuthenticatedClient | Client,
    body: RefreshRequest,

) -> ErrorBody | RefreshResponse | None:
    """ Exchanges a refresh token for a new session token (and a new refresh token). The refresh
    token presented stops working, except that for 30 seconds it yields the same answer again
    (concurrent or retried refreshes); presented after that, it signs the session out (a used
    token coming back means it was copied). With the `mc_refresh` cookie instead of a body, the
    request must carry an `X-Requested-With` header.

    Args:
        body (RefreshRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RefreshResponse
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,

) -> Response[ErrorBody | RefreshResponse]:
    """ Exchanges a refresh token for a new session token (and a new refresh token). The refresh
    token presented stops working, except that for 30 seconds it yields the same answer again
    (concurrent or retried refreshes); presented after that, it signs the session out (a used
    token coming back means it was copied). With the `mc_refresh` cookie instead of a body, the
    request must carry an `X-Requested-With` header.

    Args:
        body (RefreshRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RefreshResponse]
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
    client: AuthenticatedClient | Client,
    body: RefreshRequest,

) -> ErrorBody | RefreshResponse | None:
    """ Exchanges a refresh token for a new session token (and a new refresh token). The refresh
    token presented stops working, except that for 30 seconds it yields the same answer again
    (concurrent or retried refreshes); presented after that, it signs the session out (a used
    token coming back means it was copied). With the `mc_refresh` cookie instead of a body, the
    request must carry an `X-Requested-With` header.

    Args:
        body (RefreshRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RefreshResponse
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
