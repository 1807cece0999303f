from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.sender_input import SenderInput
from ...models.sender_view import SenderView
from typing import cast



def _get_kwargs(
    *,
    body: SenderInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/email/sender",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | SenderView | None:
    if response.status_code == 200:
        response_200 = SenderView.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | SenderView]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SenderInput,

) -> Response[ErrorBody | SenderView]:
    """ Sets the tenant's sender identity: the From name and address of its agents' email (nulls
    restore the platform default). A new address is mailed a link; until it is followed the
    email goes from the platform's address with this one as `Reply-To` (`verified: false`). 400
    for an address that is not one or a name with a line break, 422 for an address on the
    platform's own domain.

    Args:
        body (SenderInput): A tenant's sender identity for outgoing email (`null`: the platform
            default).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SenderView]
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
    body: SenderInput,

) -> ErrorBody | SenderView | None:
    """ Sets the tenant's sender identity: the From name and address of its agents' email (nulls
    restore the platform default). A new address is mailed a link; until it is followed the
    email goes from the platform's address with this one as `Reply-To` (`verified: false`). 400
    for an address that is not one or a name with a line break, 422 for an address on the
    platform's own domain.

    Args:
        body (SenderInput): A tenant's sender identity for outgoing email (`null`: the platform
            default).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SenderView
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SenderInput,

) -> Response[ErrorBody | SenderView]:
    """ Sets the tenant's sender identity: the From name and address of its agents' email (nulls
    restore the platform default). A new address is mailed a link; until it is followed the
    email goes from the platform's address with this one as `Reply-To` (`verified: false`). 400
    for an address that is not one or a name with a line break, 422 for an address on the
    platform's own domain.

    Args:
        body (SenderInput): A tenant's sender identity for outgoing email (`null`: the platform
            default).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SenderView]
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
    body: SenderInput,

) -> ErrorBody | SenderView | None:
    """ Sets the tenant's sender identity: the From name and address of its agents' email (nulls
    restore the platform default). A new address is mailed a link; until it is followed the
    email goes from the platform's address with this one as `Reply-To` (`verified: false`). 400
    for an address that is not one or a name with a line break, 422 for an address on the
    platform's own domain.

    Args:
        body (SenderInput): A tenant's sender identity for outgoing email (`null`: the platform
            default).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SenderView
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
