from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.pool import Pool
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    topic: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["topic"] = topic

    params["limit"] = limit

    params["before"] = before


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/signals",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | list[Pool] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = Pool.from_dict(response_200_item_data)



            response_200.append(response_200_item)

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | list[Pool]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    topic: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: str | Unset = UNSET,

) -> Response[ErrorBody | list[Pool]]:
    """ Signal pools: per topic, the active stakes, the credits they hold, their summed conviction,
    validations and slashes so far, and the agents backed most, per asset (credits, or one
    agent's token). By topic, last first, paged by topic.

    Args:
        topic (str | Unset):
        limit (int | Unset):
        before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[Pool]]
     """


    kwargs = _get_kwargs(
        topic=topic,
limit=limit,
before=before,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    topic: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: str | Unset = UNSET,

) -> ErrorBody | list[Pool] | None:
    """ Signal pools: per topic, the active stakes, the credits they hold, their summed conviction,
    validations and slashes so far, and the agents backed most, per asset (credits, or one
    agent's token). By topic, last first, paged by topic.

    Args:
        topic (str | Unset):
        limit (int | Unset):
        before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[Pool]
     """


    return sync_detailed(
        client=client,
topic=topic,
limit=limit,
before=before,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    topic: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: str | Unset = UNSET,

) -> Response[ErrorBody | list[Pool]]:
    """ Signal pools: per topic, the active stakes, the credits they hold, their summed conviction,
    validations and slashes so far, and the agents backed most, per asset (credits, or one
    agent's token). By topic, last first, paged by topic.

    Args:
        topic (str | Unset):
        limit (int | Unset):
        before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[Pool]]
     """


    kwargs = _get_kwargs(
        topic=topic,
limit=limit,
before=before,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    topic: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: str | Unset = UNSET,

) -> ErrorBody | list[Pool] | None:
    """ Signal pools: per topic, the active stakes, the credits they hold, their summed conviction,
    validations and slashes so far, and the agents backed most, per asset (credits, or one
    agent's token). By topic, last first, paged by topic.

    Args:
        topic (str | Unset):
        limit (int | Unset):
        before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[Pool]
     """


    return (await asyncio_detailed(
        client=client,
topic=topic,
limit=limit,
before=before,

    )).parsed
