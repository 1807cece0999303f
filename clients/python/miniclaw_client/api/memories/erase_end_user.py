from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.erased import Erased
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    end_user: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/hosted-agents/{id}/end-users/{end_user}".format(id=quote(str(id), safe=""),end_user=quote(str(end_user), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Erased | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Erased.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Erased | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    end_user: str,
    *,
    client: AuthenticatedClient,

) -> Response[Erased | ErrorBody]:
    """ Erases everything the agent keeps about one end user, everywhere it is kept (conversations,
    messages, memories and every version, tombstones, search postings, vectors, analytics,
    webhook payloads, queued jobs, kept answers); keys bound to them are revoked. Answers the
    counts; the log keeps only those. For an owner's team, admins and owners; key scopes:
    `chat:write` and `memories:write`.

    Args:
        id (UUID):
        end_user (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Erased | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
end_user=end_user,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    end_user: str,
    *,
    client: AuthenticatedClient,

) -> Erased | ErrorBody | None:
    """ Erases everything the agent keeps about one end user, everywhere it is kept (conversations,
    messages, memories and every version, tombstones, search postings, vectors, analytics,
    webhook payloads, queued jobs, kept answers); keys bound to them are revoked. Answers the
    counts; the log keeps only those. For an owner's team, admins and owners; key scopes:
    `chat:write` and `memories:write`.

    Args:
        id (UUID):
        end_user (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Erased | ErrorBody
     """


    return sync_detailed(
        id=id,
end_user=end_user,
client=client,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    end_user: str,
    *,
    client: AuthenticatedClient,

) -> Response[Erased | ErrorBody]:
    """ Erases everything the agent keeps about one end user, everywhere it is kept (conversations,
    messages, memories and every version, tombstones, search postings, vectors, analytics,
    webhook payloads, queued jobs, kept answers); keys bound to them are revoked. Answers the
    counts; the log keeps only those. For an owner's team, admins and owners; key scopes:
    `chat:write` and `memories:write`.

    Args:
        id (UUID):
        end_user (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Erased | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
end_user=end_user,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    end_user: str,
    *,
    client: AuthenticatedClient,

) -> Erased | ErrorBody | None:
    """ Erases everything the agent keeps about one end user, everywhere it is kept (conversations,
    messages, memories and every version, tombstones, search postings, vectors, analytics,
    webhook payloads, queued jobs, kept answers); keys bound to them are revoked. Answers the
    counts; the log keeps only those. For an owner's team, admins and owners; key scopes:
    `chat:write` and `memories:write`.

    Args:
        id (UUID):
        end_user (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Erased | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
end_user=end_user,
client=client,

    )).parsed
