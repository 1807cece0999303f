from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.memory import Memory
from ...models.restore_input import RestoreInput
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    mid: UUID,
    *,
    body: RestoreInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/memories/{mid}/restore".format(id=quote(str(id), safe=""),mid=quote(str(mid), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Memory | None:
    if response.status_code == 200:
        response_200 = Memory.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Memory]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    body: RestoreInput,

) -> Response[ErrorBody | Memory]:
    """ Makes a replaced, contradicted or archived memory current again (it returns to search and
    chat): for when a newer statement was wrongly taken to replace it, the old value holds once
    more, or forgetting or fusion set aside something still wanted (a restored memory counts as
    used now). The memory that replaced it stays. 409 when the memory is current already. Key
    scope: `memories:write`.

    Args:
        id (UUID):
        mid (UUID):
        body (RestoreInput): Why a memory is restored, for its history.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Memory]
     """


    kwargs = _get_kwargs(
        id=id,
mid=mid,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    body: RestoreInput,

) -> ErrorBody | Memory | None:
    """ Makes a replaced, contradicted or archived memory current again (it returns to search and
    chat): for when a newer statement was wrongly taken to replace it, the old value holds once
    more, or forgetting or fusion set aside something still wanted (a restored memory counts as
    used now). The memory that replaced it stays. 409 when the memory is current already. Key
    scope: `memories:write`.

    Args:
        id (UUID):
        mid (UUID):
        body (RestoreInput): Why a memory is restored, for its history.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Memory
     """


    return sync_detailed(
        id=id,
mid=mid,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    body: RestoreInput,

) -> Response[ErrorBody | Memory]:
    """ Makes a replaced, contradicted or archived memory current again (it returns to search and
    chat): for when a newer statement was wrongly taken to replace it, the old value holds once
    more, or forgetting or fusion set aside something still wanted (a restored memory counts as
    used now). The memory that replaced it stays. 409 when the memory is current already. Key
    scope: `memories:write`.

    Args:
        id (UUID):
        mid (UUID):
        body (RestoreInput): Why a memory is restored, for its history.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Memory]
     """


    kwargs = _get_kwargs(
        id=id,
mid=mid,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    body: RestoreInput,

) -> ErrorBody | Memory | None:
    """ Makes a replaced, contradicted or archived memory current again (it returns to search and
    chat): for when a newer statement was wrongly taken to replace it, the old value holds once
    more, or forgetting or fusion set aside something still wanted (a restored memory counts as
    used now). The memory that replaced it stays. 409 when the memory is current already. Key
    scope: `memories:write`.

    Args:
        id (UUID):
        mid (UUID):
        body (RestoreInput): Why a memory is restored, for its history.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Memory
     """


    return (await asyncio_detailed(
        id=id,
mid=mid,
client=client,
body=body,

    )).parsed
