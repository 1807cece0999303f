from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.gap_update import GapUpdate
from ...models.knowledge_gap import KnowledgeGap
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    gid: UUID,
    *,
    body: GapUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/hosted-agents/{id}/knowledge-gaps/{gid}".format(id=quote(str(id), safe=""),gid=quote(str(gid), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | KnowledgeGap | None:
    if response.status_code == 200:
        response_200 = KnowledgeGap.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | KnowledgeGap]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    gid: UUID,
    *,
    client: AuthenticatedClient,
    body: GapUpdate,

) -> Response[ErrorBody | KnowledgeGap]:
    """ Confirms or dismisses a knowledge gap. Key scope: `memories:write`.

    Args:
        id (UUID):
        gid (UUID):
        body (GapUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | KnowledgeGap]
     """


    kwargs = _get_kwargs(
        id=id,
gid=gid,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    gid: UUID,
    *,
    client: AuthenticatedClient,
    body: GapUpdate,

) -> ErrorBody | KnowledgeGap | None:
    """ Confirms or dismisses a knowledge gap. Key scope: `memories:write`.

    Args:
        id (UUID):
        gid (UUID):
        body (GapUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | KnowledgeGap
     """


    return sync_detailed(
        id=id,
gid=gid,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    gid: UUID,
    *,
    client: AuthenticatedClient,
    body: GapUpdate,

) -> Response[ErrorBody | KnowledgeGap]:
    """ Confirms or dismisses a knowledge gap. Key scope: `memories:write`.

    Args:
        id (UUID):
        gid (UUID):
        body (GapUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | KnowledgeGap]
     """


    kwargs = _get_kwargs(
        id=id,
gid=gid,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    gid: UUID,
    *,
    client: AuthenticatedClient,
    body: GapUpdate,

) -> ErrorBody | KnowledgeGap | None:
    """ Confirms or dismisses a knowledge gap. Key scope: `memories:write`.

    Args:
        id (UUID):
        gid (UUID):
        body (GapUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | KnowledgeGap
     """


    return (await asyncio_detailed(
        id=id,
gid=gid,
client=client,
body=body,

    )).parsed
