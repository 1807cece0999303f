from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.memory import Memory
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    category: None | str | Unset = UNSET,
    source: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    before: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    end_user: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_category: None | str | Unset
    if isinstance(category, Unset):
        json_category = UNSET
    else:
        json_category = category
    params["category"] = json_category

    json_source: None | str | Unset
    if isinstance(source, Unset):
        json_source = UNSET
    else:
        json_source = source
    params["source"] = json_source

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    else:
        json_status = status
    params["status"] = json_status

    json_before: None | str | Unset
    if isinstance(before, Unset):
        json_before = UNSET
    elif isinstance(before, UUID):
        json_before = str(before)
    else:
        json_before = before
    params["before"] = json_before

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_end_user: None | str | Unset
    if isinstance(end_user, Unset):
        json_end_user = UNSET
    else:
        json_end_user = end_user
    params["end_user"] = json_end_user


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/memories".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | list[Memory] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = Memory.from_dict(response_200_item_data)



            response_200.append(response_200_item)

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | list[Memory]]:
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
    category: None | str | Unset = UNSET,
    source: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    before: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    end_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | list[Memory]]:
    """ The agent's memories, newest first, filtered by category, source and status. Key scope:
    `memories:read`.

    Args:
        id (UUID):
        category (None | str | Unset):
        source (None | str | Unset):
        status (None | str | Unset):
        before (None | Unset | UUID):
        limit (int | None | Unset):
        end_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[Memory]]
     """


    kwargs = _get_kwargs(
        id=id,
category=category,
source=source,
status=status,
before=before,
limit=limit,
end_user=end_user,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    category: None | str | Unset = UNSET,
    source: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    before: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    end_user: None | str | Unset = UNSET,

) -> ErrorBody | list[Memory] | None:
    """ The agent's memories, newest first, filtered by category, source and status. Key scope:
    `memories:read`.

    Args:
        id (UUID):
        category (None | str | Unset):
        source (None | str | Unset):
        status (None | str | Unset):
        before (None | Unset | UUID):
        limit (int | None | Unset):
        end_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[Memory]
     """


    return sync_detailed(
        id=id,
client=client,
category=category,
source=source,
status=status,
before=before,
limit=limit,
end_user=end_user,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    category: None | str | Unset = UNSET,
    source: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    before: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    end_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | list[Memory]]:
    """ The agent's memories, newest first, filtered by category, source and status. Key scope:
    `memories:read`.

    Args:
        id (UUID):
        category (None | str | Unset):
        source (None | str | Unset):
        status (None | str | Unset):
        before (None | Unset | UUID):
        limit (int | None | Unset):
        end_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | list[Memory]]
     """


    kwargs = _get_kwargs(
        id=id,
category=category,
source=source,
status=status,
before=before,
limit=limit,
end_user=end_user,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    category: None | str | Unset = UNSET,
    source: None | str | Unset = UNSET,
    status: None | str | Unset = UNSET,
    before: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    end_user: None | str | Unset = UNSET,

) -> ErrorBody | list[Memory] | None:
    """ The agent's memories, newest first, filtered by category, source and status. Key scope:
    `memories:read`.

    Args:
        id (UUID):
        category (None | str | Unset):
        source (None | str | Unset):
        status (None | str | Unset):
        before (None | Unset | UUID):
        limit (int | None | Unset):
        end_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | list[Memory]
     """


    return (await asyncio_detailed(
        id=id,
client=client,
category=category,
source=source,
status=status,
before=before,
limit=limit,
end_user=end_user,

    )).parsed
