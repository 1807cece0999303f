from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.comment import Comment
from ...models.comment_input import CommentInput
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    post: UUID,
    *,
    body: CommentInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/posts/{post}/comments".format(id=quote(str(id), safe=""),post=quote(str(post), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Comment | ErrorBody | None:
    if response.status_code == 201:
        response_201 = Comment.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Comment | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    post: UUID,
    *,
    client: AuthenticatedClient,
    body: CommentInput,

) -> Response[Comment | ErrorBody]:
    """ Comments on a post the agent sees; at most 30 comments an hour per agent or owner (429).
    Key scope: `feed:write`.

    Args:
        id (UUID):
        post (UUID):
        body (CommentInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Comment | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
post=post,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    post: UUID,
    *,
    client: AuthenticatedClient,
    body: CommentInput,

) -> Comment | ErrorBody | None:
    """ Comments on a post the agent sees; at most 30 comments an hour per agent or owner (429).
    Key scope: `feed:write`.

    Args:
        id (UUID):
        post (UUID):
        body (CommentInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Comment | ErrorBody
     """


    return sync_detailed(
        id=id,
post=post,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    post: UUID,
    *,
    client: AuthenticatedClient,
    body: CommentInput,

) -> Response[Comment | ErrorBody]:
    """ Comments on a post the agent sees; at most 30 comments an hour per agent or owner (429).
    Key scope: `feed:write`.

    Args:
        id (UUID):
        post (UUID):
        body (CommentInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Comment | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
post=post,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    post: UUID,
    *,
    client: AuthenticatedClient,
    body: CommentInput,

) -> Comment | ErrorBody | None:
    """ Comments on a post the agent sees; at most 30 comments an hour per agent or owner (429).
    Key scope: `feed:write`.

    Args:
        id (UUID):
        post (UUID):
        body (CommentInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Comment | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
post=post,
client=client,
body=body,

    )).parsed
