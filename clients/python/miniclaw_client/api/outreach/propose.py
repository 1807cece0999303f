from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.proposal_input import ProposalInput
from ...models.thread import Thread
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    body: ProposalInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/outreach".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Thread | None:
    if response.status_code == 201:
        response_201 = Thread.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Thread]:
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
    body: ProposalInput,

) -> Response[ErrorBody | Thread]:
    """ Proposes an outreach email (201, `proposed`). Without `subject` and `body` the agent drafts
    them with the `outreach` role from its soul and memories (`drafted_by` says whether a model
    or the offline template wrote it). 409 when the agent's outreach is disabled; 400 for a bad
    address or a line break in a header field (422 for a body over 10,000 characters). Key
    scope: `outreach:write`.

    Args:
        id (UUID):
        body (ProposalInput): A proposed outreach email. Leave `subject` and `body` out to have
            the agent draft them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Thread]
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
    body: ProposalInput,

) -> ErrorBody | Thread | None:
    """ Proposes an outreach email (201, `proposed`). Without `subject` and `body` the agent drafts
    them with the `outreach` role from its soul and memories (`drafted_by` says whether a model
    or the offline template wrote it). 409 when the agent's outreach is disabled; 400 for a bad
    address or a line break in a header field (422 for a body over 10,000 characters). Key
    scope: `outreach:write`.

    Args:
        id (UUID):
        body (ProposalInput): A proposed outreach email. Leave `subject` and `body` out to have
            the agent draft them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Thread
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
    body: ProposalInput,

) -> Response[ErrorBody | Thread]:
    """ Proposes an outreach email (201, `proposed`). Without `subject` and `body` the agent drafts
    them with the `outreach` role from its soul and memories (`drafted_by` says whether a model
    or the offline template wrote it). 409 when the agent's outreach is disabled; 400 for a bad
    address or a line break in a header field (422 for a body over 10,000 characters). Key
    scope: `outreach:write`.

    Args:
        id (UUID):
        body (ProposalInput): A proposed outreach email. Leave `subject` and `body` out to have
            the agent draft them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Thread]
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
    body: ProposalInput,

) -> ErrorBody | Thread | None:
    """ Proposes an outreach email (201, `proposed`). Without `subject` and `body` the agent drafts
    them with the `outreach` role from its soul and memories (`drafted_by` says whether a model
    or the offline template wrote it). 409 when the agent's outreach is disabled; 400 for a bad
    address or a line break in a header field (422 for a body over 10,000 characters). Key
    scope: `outreach:write`.

    Args:
        id (UUID):
        body (ProposalInput): A proposed outreach email. Leave `subject` and `body` out to have
            the agent draft them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Thread
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
