from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.feedback import Feedback
from ...models.feedback_input import FeedbackInput
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    body: FeedbackInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_miniclaw_user, Unset):
        headers["X-Miniclaw-User"] = x_miniclaw_user



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/conversations/{cid}/messages/{mid}/feedback".format(id=quote(str(id), safe=""),cid=quote(str(cid), safe=""),mid=quote(str(mid), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Feedback | None:
    if response.status_code == 200:
        response_200 = Feedback.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Feedback]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    body: FeedbackInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | Feedback]:
    """ Rates a reply of the agent, `good` or `bad`, or corrects it. A rating teaches the agent's
    traversal graph with the REINFORCE update over the path the reply's retrieval took (every
    outgoing edge of every node on it moves toward, or away from, the edge chosen). A correction
    (a `bad` rating with the text the reply should have said) is stored as a memory, reached
    from the question's starting memories by strong edges, and vetoes the memory it corrects
    (`memory_ids`, or the used memory most similar to it) wherever it fires: the wrong memory
    stops being retrieved that way. One rating per reply; a `bad` one may later get its
    correction (409 otherwise). Key scope: `chat:write`, and `memories:write` for a correction.

    Args:
        id (UUID):
        cid (UUID):
        mid (UUID):
        x_miniclaw_user (None | str | Unset):
        body (FeedbackInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Feedback]
     """


    kwargs = _get_kwargs(
        id=id,
cid=cid,
mid=mid,
body=body,
x_miniclaw_user=x_miniclaw_user,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    body: FeedbackInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ErrorBody | Feedback | None:
    """ Rates a reply of the agent, `good` or `bad`, or corrects it. A rating teaches the agent's
    traversal graph with the REINFORCE update over the path the reply's retrieval took (every
    outgoing edge of every node on it moves toward, or away from, the edge chosen). A correction
    (a `bad` rating with the text the reply should have said) is stored as a memory, reached
    from the question's starting memories by strong edges, and vetoes the memory it corrects
    (`memory_ids`, or the used memory most similar to it) wherever it fires: the wrong memory
    stops being retrieved that way. One rating per reply; a `bad` one may later get its
    correction (409 otherwise). Key scope: `chat:write`, and `memories:write` for a correction.

    Args:
        id (UUID):
        cid (UUID):
        mid (UUID):
        x_miniclaw_user (None | str | Unset):
        body (FeedbackInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Feedback
     """


    return sync_detailed(
        id=id,
cid=cid,
mid=mid,
client=client,
body=body,
x_miniclaw_user=x_miniclaw_user,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    body: FeedbackInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[ErrorBody | Feedback]:
    """ Rates a reply of the agent, `good` or `bad`, or corrects it. A rating teaches the agent's
    traversal graph with the REINFORCE update over the path the reply's retrieval took (every
    outgoing edge of every node on it moves toward, or away from, the edge chosen). A correction
    (a `bad` rating with the text the reply should have said) is stored as a memory, reached
    from the question's starting memories by strong edges, and vetoes the memory it corrects
    (`memory_ids`, or the used memory most similar to it) wherever it fires: the wrong memory
    stops being retrieved that way. One rating per reply; a `bad` one may later get its
    correction (409 otherwise). Key scope: `chat:write`, and `memories:write` for a correction.

    Args:
        id (UUID):
        cid (UUID):
        mid (UUID):
        x_miniclaw_user (None | str | Unset):
        body (FeedbackInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Feedback]
     """


    kwargs = _get_kwargs(
        id=id,
cid=cid,
mid=mid,
body=body,
x_miniclaw_user=x_miniclaw_user,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    cid: UUID,
    mid: UUID,
    *,
    client: AuthenticatedClient,
    body: FeedbackInput,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> ErrorBody | Feedback | None:
    """ Rates a reply of the agent, `good` or `bad`, or corrects it. A rating teaches the agent's
    traversal graph with the REINFORCE update over the path the reply's retrieval took (every
    outgoing edge of every node on it moves toward, or away from, the edge chosen). A correction
    (a `bad` rating with the text the reply should have said) is stored as a memory, reached
    from the question's starting memories by strong edges, and vetoes the memory it corrects
    (`memory_ids`, or the used memory most similar to it) wherever it fires: the wrong memory
    stops being retrieved that way. One rating per reply; a `bad` one may later get its
    correction (409 otherwise). Key scope: `chat:write`, and `memories:write` for a correction.

    Args:
        id (UUID):
        cid (UUID):
        mid (UUID):
        x_miniclaw_user (None | str | Unset):
        body (FeedbackInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Feedback
     """


    return (await asyncio_detailed(
        id=id,
cid=cid,
mid=mid,
client=client,
body=body,
x_miniclaw_user=x_miniclaw_user,

    )).parsed
