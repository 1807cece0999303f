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
    cid: UUID,
    *,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_miniclaw_user, Unset):
        headers["X-Miniclaw-User"] = x_miniclaw_user



    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/hosted-agents/{id}/conversations/{cid}".format(id=quote(str(id), safe=""),cid=quote(str(cid), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    cid: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[Any | ErrorBody]:
    """ Deletes a conversation the request may see: it is gone at once (404 from then on) and
    purged with its messages after `MINICLAW_CONVERSATION_RETENTION_DAYS`; the deletion is in
    the agent's activity log with who made it. What the agent learned from it stays in memory.
    Key scope: `chat:write`.

    Args:
        id (UUID):
        cid (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
cid=cid,
x_miniclaw_user=x_miniclaw_user,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    cid: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Any | ErrorBody | None:
    """ Deletes a conversation the request may see: it is gone at once (404 from then on) and
    purged with its messages after `MINICLAW_CONVERSATION_RETENTION_DAYS`; the deletion is in
    the agent's activity log with who made it. What the agent learned from it stays in memory.
    Key scope: `chat:write`.

    Args:
        id (UUID):
        cid (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return sync_detailed(
        id=id,
cid=cid,
client=client,
x_miniclaw_user=x_miniclaw_user,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    cid: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Response[Any | ErrorBody]:
    """ Deletes a conversation the request may see: it is gone at once (404 from then on) and
    purged with its messages after `MINICLAW_CONVERSATION_RETENTION_DAYS`; the deletion is in
    the agent's activity log with who made it. What the agent learned from it stays in memory.
    Key scope: `chat:write`.

    Args:
        id (UUID):
        cid (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
cid=cid,
x_miniclaw_user=x_miniclaw_user,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    cid: UUID,
    *,
    client: AuthenticatedClient,
    x_miniclaw_user: None | str | Unset = UNSET,

) -> Any | ErrorBody | None:
    """ Deletes a conversation the request may see: it is gone at once (404 from then on) and
    purged with its messages after `MINICLAW_CONVERSATION_RETENTION_DAYS`; the deletion is in
    the agent's activity log with who made it. What the agent learned from it stays in memory.
    Key scope: `chat:write`.

    Args:
        id (UUID):
        cid (UUID):
        x_miniclaw_user (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
cid=cid,
client=client,
x_miniclaw_user=x_miniclaw_user,

    )).parsed
