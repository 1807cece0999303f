from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_account_key_request import CreateAccountKeyRequest
from ...models.error_body import ErrorBody
from ...models.issued_account_key import IssuedAccountKey
from typing import cast



def _get_kwargs(
    *,
    body: CreateAccountKeyRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/api-keys",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | IssuedAccountKey | None:
    if response.status_code == 201:
        response_201 = IssuedAccountKey.from_dict(response.json())



        return response_201

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

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | IssuedAccountKey]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateAccountKeyRequest,

) -> Response[ErrorBody | IssuedAccountKey]:
    """ Issues a key of the account, for the agents it names or every agent. Admins and owners.
    409 when the account already has `MINICLAW_KEYS_PER_AGENT` live keys of its own.

    Args:
        body (CreateAccountKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | IssuedAccountKey]
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
    body: CreateAccountKeyRequest,

) -> ErrorBody | IssuedAccountKey | None:
    """ Issues a key of the account, for the agents it names or every agent. Admins and owners.
    409 when the account already has `MINICLAW_KEYS_PER_AGENT` live keys of its own.

    Args:
        body (CreateAccountKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | IssuedAccountKey
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateAccountKeyRequest,

) -> Response[ErrorBody | IssuedAccountKey]:
    """ Issues a key of the account, for the agents it names or every agent. Admins and owners.
    409 when the account already has `MINICLAW_KEYS_PER_AGENT` live keys of its own.

    Args:
        body (CreateAccountKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | IssuedAccountKey]
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
    body: CreateAccountKeyRequest,

) -> ErrorBody | IssuedAccountKey | None:
    """ Issues a key of the account, for the agents it names or every agent. Admins and owners.
    409 when the account already has `MINICLAW_KEYS_PER_AGENT` live keys of its own.

    Args:
        body (CreateAccountKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | IssuedAccountKey
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
