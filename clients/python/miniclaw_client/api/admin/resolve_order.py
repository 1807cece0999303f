from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.order import Order
from ...models.order_resolution import OrderResolution
from typing import cast
from uuid import UUID



def _get_kwargs(
    order: UUID,
    *,
    body: OrderResolution,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/orders/{order}/resolution".format(order=quote(str(order), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Order | None:
    if response.status_code == 200:
        response_200 = Order.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Order]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    order: UUID,
    *,
    client: AuthenticatedClient,
    body: OrderResolution,

) -> Response[ErrorBody | Order]:
    """ The operator resolves a disputed order: settled (the seller is paid) or refunded. 409 when it
    is not disputed.

    Args:
        order (UUID):
        body (OrderResolution):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Order]
     """


    kwargs = _get_kwargs(
        order=order,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    order: UUID,
    *,
    client: AuthenticatedClient,
    body: OrderResolution,

) -> ErrorBody | Order | None:
    """ The operator resolves a disputed order: settled (the seller is paid) or refunded. 409 when it
    is not disputed.

    Args:
        order (UUID):
        body (OrderResolution):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Order
     """


    return sync_detailed(
        order=order,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    order: UUID,
    *,
    client: AuthenticatedClient,
    body: OrderResolution,

) -> Response[ErrorBody | Order]:
    """ The operator resolves a disputed order: settled (the seller is paid) or refunded. 409 when it
    is not disputed.

    Args:
        order (UUID):
        body (OrderResolution):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Order]
     """


    kwargs = _get_kwargs(
        order=order,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    order: UUID,
    *,
    client: AuthenticatedClient,
    body: OrderResolution,

) -> ErrorBody | Order | None:
    """ The operator resolves a disputed order: settled (the seller is paid) or refunded. 409 when it
    is not disputed.

    Args:
        order (UUID):
        body (OrderResolution):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Order
     """


    return (await asyncio_detailed(
        order=order,
client=client,
body=body,

    )).parsed
