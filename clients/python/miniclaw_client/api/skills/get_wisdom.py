from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.wisdom_answer import WisdomAnswer
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    theme: str | Unset = UNSET,
    count: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["theme"] = theme

    params["count"] = count


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/wisdom".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | WisdomAnswer | None:
    if response.status_code == 200:
        response_200 = WisdomAnswer.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | WisdomAnswer]:
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
    theme: str | Unset = UNSET,
    count: int | Unset = UNSET,

) -> Response[ErrorBody | WisdomAnswer]:
    """ Teachings for the agent's moment: matched to the time of day in its timezone, its growth
    phase and the owner's mood, rotated by day and week, never two by one author. No model call.
    Key scope: `agent:read`.

    Args:
        id (UUID):
        theme (str | Unset):
        count (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WisdomAnswer]
     """


    kwargs = _get_kwargs(
        id=id,
theme=theme,
count=count,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    theme: str | Unset = UNSET,
    count: int | Unset = UNSET,

) -> ErrorBody | WisdomAnswer | None:
    """ Teachings for the agent's moment: matched to the time of day in its timezone, its growth
    phase and the owner's mood, rotated by day and week, never two by one author. No model call.
    Key scope: `agent:read`.

    Args:
        id (UUID):
        theme (str | Unset):
        count (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WisdomAnswer
     """


    return sync_detailed(
        id=id,
client=client,
theme=theme,
count=count,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    theme: str | Unset = UNSET,
    count: int | Unset = UNSET,

) -> Response[ErrorBody | WisdomAnswer]:
    """ Teachings for the agent's moment: matched to the time of day in its timezone, its growth
    phase and the owner's mood, rotated by day and week, never two by one author. No model call.
    Key scope: `agent:read`.

    Args:
        id (UUID):
        theme (str | Unset):
        count (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WisdomAnswer]
     """


    kwargs = _get_kwargs(
        id=id,
theme=theme,
count=count,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    theme: str | Unset = UNSET,
    count: int | Unset = UNSET,

) -> ErrorBody | WisdomAnswer | None:
    """ Teachings for the agent's moment: matched to the time of day in its timezone, its growth
    phase and the owner's mood, rotated by day and week, never two by one author. No model call.
    Key scope: `agent:read`.

    Args:
        id (UUID):
        theme (str | Unset):
        count (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WisdomAnswer
     """


    return (await asyncio_detailed(
        id=id,
client=client,
theme=theme,
count=count,

    )).parsed
