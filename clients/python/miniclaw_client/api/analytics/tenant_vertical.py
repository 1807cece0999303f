from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.vertical import Vertical
from typing import cast



def _get_kwargs(
    vertical: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/vertical-metrics/{vertical}".format(vertical=quote(str(vertical), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Vertical | None:
    if response.status_code == 200:
        response_200 = Vertical.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Vertical]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    vertical: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Vertical]:
    """ One of the five verticals (`trust`, `economy`, `runtime`, `reputation`, `social`) over the
    signed-in owner's agents; kept 60 s in the server (`cached`). Metrics the platform has no
    data for yet are listed in `not_available` with the reason. Owner only.

    Args:
        vertical (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Vertical]
     """


    kwargs = _get_kwargs(
        vertical=vertical,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    vertical: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Vertical | None:
    """ One of the five verticals (`trust`, `economy`, `runtime`, `reputation`, `social`) over the
    signed-in owner's agents; kept 60 s in the server (`cached`). Metrics the platform has no
    data for yet are listed in `not_available` with the reason. Owner only.

    Args:
        vertical (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Vertical
     """


    return sync_detailed(
        vertical=vertical,
client=client,

    ).parsed

async def asyncio_detailed(
    vertical: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Vertical]:
    """ One of the five verticals (`trust`, `economy`, `runtime`, `reputation`, `social`) over the
    signed-in owner's agents; kept 60 s in the server (`cached`). Metrics the platform has no
    data for yet are listed in `not_available` with the reason. Owner only.

    Args:
        vertical (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Vertical]
     """


    kwargs = _get_kwargs(
        vertical=vertical,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    vertical: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Vertical | None:
    """ One of the five verticals (`trust`, `economy`, `runtime`, `reputation`, `social`) over the
    signed-in owner's agents; kept 60 s in the server (`cached`). Metrics the platform has no
    data for yet are listed in `not_available` with the reason. Owner only.

    Args:
        vertical (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Vertical
     """


    return (await asyncio_detailed(
        vertical=vertical,
client=client,

    )).parsed
