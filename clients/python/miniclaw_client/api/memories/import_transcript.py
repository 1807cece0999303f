from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.import_request import ImportRequest
from ...models.started import Started
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: ImportRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/memories/import".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Started | None:
    if response.status_code == 200:
        response_200 = Started.from_dict(response.json())



        return response_200

    if response.status_code == 202:
        response_202 = Started.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())



        return response_413

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Started]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ImportRequest,

) -> Response[ErrorBody | Started]:
    """ Imports a history: a transcript of messages (`role` user/assistant, or `speaker`) with the
    times they were said. It is recorded whole (a bad message is a 400 naming it; nothing is
    stored then), and a job runs extraction over it in time order, so the memories found carry
    those times as `occurred_at`. 202 with the import to poll; the same transcript again is 200
    with the earlier import and `duplicate: true`, storing nothing new. Key scope:
    `memories:write`.

    Args:
        id (UUID):
        body (ImportRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Started]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ImportRequest,

) -> ErrorBody | Started | None:
    """ Imports a history: a transcript of messages (`role` user/assistant, or `speaker`) with the
    times they were said. It is recorded whole (a bad message is a 400 naming it; nothing is
    stored then), and a job runs extraction over it in time order, so the memories found carry
    those times as `occurred_at`. 202 with the import to poll; the same transcript again is 200
    with the earlier import and `duplicate: true`, storing nothing new. Key scope:
    `memories:write`.

    Args:
        id (UUID):
        body (ImportRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Started
     """


    return sync_detailed(
        id=id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ImportRequest,

) -> Response[ErrorBody | Started]:
    """ Imports a history: a transcript of messages (`role` user/assistant, or `speaker`) with the
    times they were said. It is recorded whole (a bad message is a 400 naming it; nothing is
    stored then), and a job runs extraction over it in time order, so the memories found carry
    those times as `occurred_at`. 202 with the import to poll; the same transcript again is 200
    with the earlier import and `duplicate: true`, storing nothing new. Key scope:
    `memories:write`.

    Args:
        id (UUID):
        body (ImportRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Started]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: ImportRequest,

) -> ErrorBody | Started | None:
    """ Imports a history: a transcript of messages (`role` user/assistant, or `speaker`) with the
    times they were said. It is recorded whole (a bad message is a 400 naming it; nothing is
    stored then), and a job runs extraction over it in time order, so the memories found carry
    those times as `occurred_at`. 202 with the import to poll; the same transcript again is 200
    with the earlier import and `duplicate: true`, storing nothing new. Key scope:
    `memories:write`.

    Args:
        id (UUID):
        body (ImportRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Started
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
