from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.identity import Identity
from ...models.profile import Profile
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: Profile,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/hosted-agents/{id}/identity".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Identity | None:
    if response.status_code == 200:
        response_200 = Identity.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Identity]:
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
    body: Profile,

) -> Response[ErrorBody | Identity]:
    """ Sets the registration file's profile: `domain`, `image`, `description`, `email` (absent
    fields stay, an empty string clears one). A new domain is unproven (`domain_proof` names the
    TXT record to add) until `POST …/identity/domain/verify` finds it. A registered agent's
    registry entry is refreshed with `setAgentURI` shortly after. Key scope: `identity:write`;
    `domain` is the owner's alone to set (403 `owner_only` for a key: the registry entry would
    point where the key's holder says).

    Args:
        id (UUID):
        body (Profile): What the registration file says beyond the agent's settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Identity]
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
    body: Profile,

) -> ErrorBody | Identity | None:
    """ Sets the registration file's profile: `domain`, `image`, `description`, `email` (absent
    fields stay, an empty string clears one). A new domain is unproven (`domain_proof` names the
    TXT record to add) until `POST …/identity/domain/verify` finds it. A registered agent's
    registry entry is refreshed with `setAgentURI` shortly after. Key scope: `identity:write`;
    `domain` is the owner's alone to set (403 `owner_only` for a key: the registry entry would
    point where the key's holder says).

    Args:
        id (UUID):
        body (Profile): What the registration file says beyond the agent's settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Identity
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
    body: Profile,

) -> Response[ErrorBody | Identity]:
    """ Sets the registration file's profile: `domain`, `image`, `description`, `email` (absent
    fields stay, an empty string clears one). A new domain is unproven (`domain_proof` names the
    TXT record to add) until `POST …/identity/domain/verify` finds it. A registered agent's
    registry entry is refreshed with `setAgentURI` shortly after. Key scope: `identity:write`;
    `domain` is the owner's alone to set (403 `owner_only` for a key: the registry entry would
    point where the key's holder says).

    Args:
        id (UUID):
        body (Profile): What the registration file says beyond the agent's settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Identity]
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
    body: Profile,

) -> ErrorBody | Identity | None:
    """ Sets the registration file's profile: `domain`, `image`, `description`, `email` (absent
    fields stay, an empty string clears one). A new domain is unproven (`domain_proof` names the
    TXT record to add) until `POST …/identity/domain/verify` finds it. A registered agent's
    registry entry is refreshed with `setAgentURI` shortly after. Key scope: `identity:write`;
    `domain` is the owner's alone to set (403 `owner_only` for a key: the registry entry would
    point where the key's holder says).

    Args:
        id (UUID):
        body (Profile): What the registration file says beyond the agent's settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Identity
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
