from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent import Agent
from ...models.confirm import Confirm
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    draft: UUID,
    *,
    body: Confirm,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/agents/spawn/{draft}/confirm".format(draft=quote(str(draft), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Agent | ErrorBody | None:
    if response.status_code == 201:
        response_201 = Agent.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Agent | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    draft: UUID,
    *,
    client: AuthenticatedClient,
    body: Confirm,

) -> Response[Agent | ErrorBody]:
    """ Creates the drafted agent, with your changes (`name`, `persona`, `soul`; absent ones keep
    the draft's), and its first soul. 409 once the draft was confirmed. Owner only.

    Args:
        draft (UUID):
        body (Confirm): What the owner changes before confirming (absent fields keep the draft's).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | ErrorBody]
     """


    kwargs = _get_kwargs(
        draft=draft,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    draft: UUID,
    *,
    client: AuthenticatedClient,
    body: Confirm,

) -> Agent | ErrorBody | None:
    """ Creates the drafted agent, with your changes (`name`, `persona`, `soul`; absent ones keep
    the draft's), and its first soul. 409 once the draft was confirmed. Owner only.

    Args:
        draft (UUID):
        body (Confirm): What the owner changes before confirming (absent fields keep the draft's).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | ErrorBody
     """


    return sync_detailed(
        draft=draft,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    draft: UUID,
    *,
    client: AuthenticatedClient,
    body: Confirm,

) -> Response[Agent | ErrorBody]:
    """ Creates the drafted agent, with your changes (`name`, `persona`, `soul`; absent ones keep
    the draft's), and its first soul. 409 once the draft was confirmed. Owner only.

    Args:
        draft (UUID):
        body (Confirm): What the owner changes before confirming (absent fields keep the draft's).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | ErrorBody]
     """


    kwargs = _get_kwargs(
        draft=draft,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    draft: UUID,
    *,
    client: AuthenticatedClient,
    body: Confirm,

) -> Agent | ErrorBody | None:
    """ Creates the drafted agent, with your changes (`name`, `persona`, `soul`; absent ones keep
    the draft's), and its first soul. 409 once the draft was confirmed. Owner only.

    Args:
        draft (UUID):
        body (Confirm): What the owner changes before confirming (absent fields keep the draft's).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | ErrorBody
     """


    return (await asyncio_detailed(
        draft=draft,
client=client,
body=body,

    )).parsed
