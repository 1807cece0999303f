from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.bundle import Bundle
from ...models.error_body import ErrorBody
from ...models.export_agent_format import ExportAgentFormat
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    format_: ExportAgentFormat | Unset = UNSET,
    conversations: bool | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    params["conversations"] = conversations


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/export".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Bundle | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Bundle.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Bundle | ErrorBody]:
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
    format_: ExportAgentFormat | Unset = UNSET,
    conversations: bool | Unset = UNSET,

) -> Response[Bundle | ErrorBody]:
    """ Exports the agent: its settings, soul with every version, memories with history and
    relations, knowledge, dossier, tasks, installed skills and (`conversations=true`) its
    conversations, as a `miniclaw.agent` bundle (see the README's "Export and import") or, with
    `format=letta`, as a Letta Agent File. No secrets: no keys, wallets, webhook or bot secrets,
    no vectors. Owner only.

    Args:
        id (UUID):
        format_ (ExportAgentFormat | Unset):
        conversations (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Bundle | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
format_=format_,
conversations=conversations,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ExportAgentFormat | Unset = UNSET,
    conversations: bool | Unset = UNSET,

) -> Bundle | ErrorBody | None:
    """ Exports the agent: its settings, soul with every version, memories with history and
    relations, knowledge, dossier, tasks, installed skills and (`conversations=true`) its
    conversations, as a `miniclaw.agent` bundle (see the README's "Export and import") or, with
    `format=letta`, as a Letta Agent File. No secrets: no keys, wallets, webhook or bot secrets,
    no vectors. Owner only.

    Args:
        id (UUID):
        format_ (ExportAgentFormat | Unset):
        conversations (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Bundle | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
format_=format_,
conversations=conversations,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ExportAgentFormat | Unset = UNSET,
    conversations: bool | Unset = UNSET,

) -> Response[Bundle | ErrorBody]:
    """ Exports the agent: its settings, soul with every version, memories with history and
    relations, knowledge, dossier, tasks, installed skills and (`conversations=true`) its
    conversations, as a `miniclaw.agent` bundle (see the README's "Export and import") or, with
    `format=letta`, as a Letta Agent File. No secrets: no keys, wallets, webhook or bot secrets,
    no vectors. Owner only.

    Args:
        id (UUID):
        format_ (ExportAgentFormat | Unset):
        conversations (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Bundle | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
format_=format_,
conversations=conversations,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ExportAgentFormat | Unset = UNSET,
    conversations: bool | Unset = UNSET,

) -> Bundle | ErrorBody | None:
    """ Exports the agent: its settings, soul with every version, memories with history and
    relations, knowledge, dossier, tasks, installed skills and (`conversations=true`) its
    conversations, as a `miniclaw.agent` bundle (see the README's "Export and import") or, with
    `format=letta`, as a Letta Agent File. No secrets: no keys, wallets, webhook or bot secrets,
    no vectors. Owner only.

    Args:
        id (UUID):
        format_ (ExportAgentFormat | Unset):
        conversations (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Bundle | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
format_=format_,
conversations=conversations,

    )).parsed
