from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.install_request import InstallRequest
from ...models.installed import Installed
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: InstallRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/skills".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Installed | None:
    if response.status_code == 201:
        response_201 = Installed.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 402:
        response_402 = ErrorBody.from_dict(response.json())



        return response_402

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Installed]:
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
    body: InstallRequest,

) -> Response[ErrorBody | Installed]:
    """ Installs a skill on the agent, or updates it to the newest version. A paid skill is bought
    once per agent from the owner's credits (402 `insufficient_credits` when they are short; a key
    gets 403 `owner_only`: only the owner spends credits); 422 `skill_unavailable` with the
    reasons when it cannot be used here (nothing is paid). A key's install or update waits for the
    owner's approval (`approved_at` is `null`; `POST …/skills/{slug}/approve`) before the skill is
    used. Key scope: `skills:write`.

    Args:
        id (UUID):
        body (InstallRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Installed]
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
    body: InstallRequest,

) -> ErrorBody | Installed | None:
    """ Installs a skill on the agent, or updates it to the newest version. A paid skill is bought
    once per agent from the owner's credits (402 `insufficient_credits` when they are short; a key
    gets 403 `owner_only`: only the owner spends credits); 422 `skill_unavailable` with the
    reasons when it cannot be used here (nothing is paid). A key's install or update waits for the
    owner's approval (`approved_at` is `null`; `POST …/skills/{slug}/approve`) before the skill is
    used. Key scope: `skills:write`.

    Args:
        id (UUID):
        body (InstallRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Installed
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
    body: InstallRequest,

) -> Response[ErrorBody | Installed]:
    """ Installs a skill on the agent, or updates it to the newest version. A paid skill is bought
    once per agent from the owner's credits (402 `insufficient_credits` when they are short; a key
    gets 403 `owner_only`: only the owner spends credits); 422 `skill_unavailable` with the
    reasons when it cannot be used here (nothing is paid). A key's install or update waits for the
    owner's approval (`approved_at` is `null`; `POST …/skills/{slug}/approve`) before the skill is
    used. Key scope: `skills:write`.

    Args:
        id (UUID):
        body (InstallRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Installed]
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
    body: InstallRequest,

) -> ErrorBody | Installed | None:
    """ Installs a skill on the agent, or updates it to the newest version. A paid skill is bought
    once per agent from the owner's credits (402 `insufficient_credits` when they are short; a key
    gets 403 `owner_only`: only the owner spends credits); 422 `skill_unavailable` with the
    reasons when it cannot be used here (nothing is paid). A key's install or update waits for the
    owner's approval (`approved_at` is `null`; `POST …/skills/{slug}/approve`) before the skill is
    used. Key scope: `skills:write`.

    Args:
        id (UUID):
        body (InstallRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Installed
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
