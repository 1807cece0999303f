from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.month import Month
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    month: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/ledger/months/{month}".format(id=quote(str(id), safe=""),month=quote(str(month), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Month | None:
    if response.status_code == 200:
        response_200 = Month.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Month]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    month: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Month]:
    """ The days of one month of the ledger (`YYYY-MM`, UTC). Owner only.

    Args:
        id (UUID):
        month (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Month]
     """


    kwargs = _get_kwargs(
        id=id,
month=month,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    month: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Month | None:
    """ The days of one month of the ledger (`YYYY-MM`, UTC). Owner only.

    Args:
        id (UUID):
        month (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Month
     """


    return sync_detailed(
        id=id,
month=month,
client=client,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    month: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | Month]:
    """ The days of one month of the ledger (`YYYY-MM`, UTC). Owner only.

    Args:
        id (UUID):
        month (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Month]
     """


    kwargs = _get_kwargs(
        id=id,
month=month,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    month: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | Month | None:
    """ The days of one month of the ledger (`YYYY-MM`, UTC). Owner only.

    Args:
        id (UUID):
        month (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Month
     """


    return (await asyncio_detailed(
        id=id,
month=month,
client=client,

    )).parsed
