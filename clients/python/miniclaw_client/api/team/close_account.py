from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.close_request import CloseRequest
from ...models.closing import Closing
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    *,
    body: CloseRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/account/close",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Closing | ErrorBody | None:
    if response.status_code == 202:
        response_202 = Closing.from_dict(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Closing | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CloseRequest,

) -> Response[Closing | ErrorBody]:
    """ Closes the account (owners): every other session ends, keys are refused (403
    `account_closing`), model calls and jobs stop; after `MINICLAW_ACCOUNT_GRACE_DAYS` (14) the
    account and everything it holds is purged. Until then an owner may reopen it. 403
    `wrong_password`; 409 when it is closing already.

    Args:
        body (CloseRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Closing | ErrorBody]
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
    body: CloseRequest,

) -> Closing | ErrorBody | None:
    """ Closes the account (owners): every other session ends, keys are refused (403
    `account_closing`), model calls and jobs stop; after `MINICLAW_ACCOUNT_GRACE_DAYS` (14) the
    account and everything it holds is purged. Until then an owner may reopen it. 403
    `wrong_password`; 409 when it is closing already.

    Args:
        body (CloseRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Closing | ErrorBody
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CloseRequest,

) -> Response[Closing | ErrorBody]:
    """ Closes the account (owners): every other session ends, keys are refused (403
    `account_closing`), model calls and jobs stop; after `MINICLAW_ACCOUNT_GRACE_DAYS` (14) the
    account and everything it holds is purged. Until then an owner may reopen it. 403
    `wrong_password`; 409 when it is closing already.

    Args:
        body (CloseRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Closing | ErrorBody]
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
    body: CloseRequest,

) -> Closing | ErrorBody | None:
    """ Closes the account (owners): every other session ends, keys are refused (403
    `account_closing`), model calls and jobs stop; after `MINICLAW_ACCOUNT_GRACE_DAYS` (14) the
    account and everything it holds is purged. Until then an owner may reopen it. 403
    `wrong_password`; 409 when it is closing already.

    Args:
        body (CloseRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Closing | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
