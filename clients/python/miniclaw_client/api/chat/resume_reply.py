from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    mid: UUID,
    *,
    offset: int | None | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_miniclaw_user, Unset):
        headers["X-Miniclaw-User"] = x_miniclaw_user



    

    params: dict[str, Any] = {}

    json_offset: int | None | Unset
    if isinstance(offset, Unset):
        json_offset = UNSET
    else:
        json_offset = offset
    params["offset"] = json_offset


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/chat/replies/{mid}/stream".format(id=quote(str(id), safe=""),mid=quote(str(mid), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
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

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody]:
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
    offset: int | None | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[Any | ErrorBody]:
    """ The SSE stream of a reply from the offset in `Last-Event-ID` (or `?offset=`): what was
    produced since, then the live rest. Works during and after generation. 429 with
    `Retry-After` when the reply (or the agent's replies) already has as many followers as
    allowed. Key scope: `chat:read`.

    Args:
        id (UUID):
        mid (UUID):
        offset (int | None | Unset):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
mid=mid,
offset=offset,
x_miniclaw_user=x_miniclaw_user,

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
    offset: int | None | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Any | ErrorBody | None:
    """ The SSE stream of a reply from the offset in `Last-Event-ID` (or `?offset=`): what was
    produced since, then the live rest. Works during and after generation. 429 with
    `Retry-After` when the reply (or the agent's replies) already has as many followers as
    allowed. Key scope: `chat:read`.

    Args:
        id (UUID):
        mid (UUID):
        offset (int | None | Unset):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return sync_detailed(
        id=id,
mid=mid,
client=client,
offset=offset,
x_miniclaw_user=x_miniclaw_user,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    offset: int | None | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[Any | ErrorBody]:
    """ The SSE stream of a reply from the offset in `Last-Event-ID` (or `?offset=`): what was
    produced since, then the live rest. Works during and after generation. 429 with
    `Retry-After` when the reply (or the agent's replies) already has as many followers as
    allowed. Key scope: `chat:read`.

    Args:
        id (UUID):
        mid (UUID):
        offset (int | None | Unset):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
mid=mid,
offset=offset,
x_miniclaw_user=x_miniclaw_user,

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
    offset: int | None | Unset = UNSET,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Any | ErrorBody | None:
    """ The SSE stream of a reply from the offset in `Last-Event-ID` (or `?offset=`): what was
    produced since, then the live rest. Works during and after generation. 429 with
    `Retry-After` when the reply (or the agent's replies) already has as many followers as
    allowed. Key scope: `chat:read`.

    Args:
        id (UUID):
        mid (UUID):
        offset (int | None | Unset):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
mid=mid,
client=client,
offset=offset,
x_miniclaw_user=x_miniclaw_user,

    )).parsed
