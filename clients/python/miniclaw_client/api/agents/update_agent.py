from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent import Agent
from ...models.agent_input import AgentInput
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: AgentInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/hosted-agents/{id}".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Agent | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Agent.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Agent | ErrorBody]:
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
    body: AgentInput,

) -> Response[Agent | ErrorBody]:
    """ Changes settings; absent fields stay, `null` clears a nullable one. Key scope: `agent:write`,
    which cannot change the owner-only fields (`tier`, `premium_model`, `daily_token_budget`,
    `active`, `evm_address`, `ed25519_public_key`, `connect_scopes`): 403 `owner_only` names them.

    Args:
        id (UUID):
        body (AgentInput): Settings to create an agent with, or to change (PATCH: absent fields
            stay as they are;
            `null` clears a nullable one).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: AgentInput,

) -> Agent | ErrorBody | None:
    """ Changes settings; absent fields stay, `null` clears a nullable one. Key scope: `agent:write`,
    which cannot change the owner-only fields (`tier`, `premium_model`, `daily_token_budget`,
    `active`, `evm_address`, `ed25519_public_key`, `connect_scopes`): 403 `owner_only` names them.

    Args:
        id (UUID):
        body (AgentInput): Settings to create an agent with, or to change (PATCH: absent fields
            stay as they are;
            `null` clears a nullable one).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: AgentInput,

) -> Response[Agent | ErrorBody]:
    """ Changes settings; absent fields stay, `null` clears a nullable one. Key scope: `agent:write`,
    which cannot change the owner-only fields (`tier`, `premium_model`, `daily_token_budget`,
    `active`, `evm_address`, `ed25519_public_key`, `connect_scopes`): 403 `owner_only` names them.

    Args:
        id (UUID):
        body (AgentInput): Settings to create an agent with, or to change (PATCH: absent fields
            stay as they are;
            `null` clears a nullable one).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: AgentInput,

) -> Agent | ErrorBody | None:
    """ Changes settings; absent fields stay, `null` clears a nullable one. Key scope: `agent:write`,
    which cannot change the owner-only fields (`tier`, `premium_model`, `daily_token_budget`,
    `active`, `evm_address`, `ed25519_public_key`, `connect_scopes`): 403 `owner_only` names them.

    Args:
        id (UUID):
        body (AgentInput): Settings to create an agent with, or to change (PATCH: absent fields
            stay as they are;
            `null` clears a nullable one).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
