from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.tip import Tip
from ...models.tip_decision import TipDecision
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    tip: UUID,
    *,
    body: TipDecision,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/{id}/tips/{tip}/decision".format(id=quote(str(id), safe=""),tip=quote(str(tip), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Tip | None:
    if response.status_code == 200:
        response_200 = Tip.from_dict(response.json())



        return response_200

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

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Tip]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    tip: UUID,
    *,
    client: AuthenticatedClient,
    body: TipDecision,

) -> Response[ErrorBody | Tip]:
    """ The owner confirms or cancels a credit tip the agent's chat asked for above the auto-approve
    limit. 409 when it is not waiting. Owner only.

    Args:
        id (UUID):
        tip (UUID):
        body (TipDecision):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Tip]
     """


    kwargs = _get_kwargs(
        id=id,
tip=tip,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    tip: UUID,
    *,
    client: AuthenticatedClient,
    body: TipDecision,

) -> ErrorBody | Tip | None:
    """ The owner confirms or cancels a credit tip the agent's chat asked for above the auto-approve
    limit. 409 when it is not waiting. Owner only.

    Args:
        id (UUID):
        tip (UUID):
        body (TipDecision):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Tip
     """


    return sync_detailed(
        id=id,
tip=tip,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    tip: UUID,
    *,
    client: AuthenticatedClient,
    body: TipDecision,

) -> Response[ErrorBody | Tip]:
    """ The owner confirms or cancels a credit tip the agent's chat asked for above the auto-approve
    limit. 409 when it is not waiting. Owner only.

    Args:
        id (UUID):
        tip (UUID):
        body (TipDecision):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Tip]
     """


    kwargs = _get_kwargs(
        id=id,
tip=tip,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    tip: UUID,
    *,
    client: AuthenticatedClient,
    body: TipDecision,

) -> ErrorBody | Tip | None:
    """ The owner confirms or cancels a credit tip the agent's chat asked for above the auto-approve
    limit. 409 when it is not waiting. Owner only.

    Args:
        id (UUID):
        tip (UUID):
        body (TipDecision):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Tip
     """


    return (await asyncio_detailed(
        id=id,
tip=tip,
client=client,
body=body,

    )).parsed
