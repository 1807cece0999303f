from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.endpoint_input import EndpointInput
from ...models.endpoint_with_secret import EndpointWithSecret
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    *,
    body: EndpointInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EndpointWithSecret | ErrorBody | None:
    if response.status_code == 201:
        response_201 = EndpointWithSecret.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EndpointWithSecret | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EndpointInput,

) -> Response[EndpointWithSecret | ErrorBody]:
    """ Registers an endpoint for one agent (`agent_id`; a key's is always its own agent) or, for
    an owner, the whole account. The answer carries its `whsec_` secret, shown only here and on
    rotation. The URL must be public unless the operator allows it (422 `url_refused`). At most
    20 per account (409).

    Args:
        body (EndpointInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointWithSecret | ErrorBody]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: EndpointInput,

) -> EndpointWithSecret | ErrorBody | None:
    """ Registers an endpoint for one agent (`agent_id`; a key's is always its own agent) or, for
    an owner, the whole account. The answer carries its `whsec_` secret, shown only here and on
    rotation. The URL must be public unless the operator allows it (422 `url_refused`). At most
    20 per account (409).

    Args:
        body (EndpointInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointWithSecret | ErrorBody
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: EndpointInput,

) -> Response[EndpointWithSecret | ErrorBody]:
    """ Registers an endpoint for one agent (`agent_id`; a key's is always its own agent) or, for
    an owner, the whole account. The answer carries its `whsec_` secret, shown only here and on
    rotation. The URL must be public unless the operator allows it (422 `url_refused`). At most
    20 per account (409).

    Args:
        body (EndpointInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointWithSecret | ErrorBody]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: EndpointInput,

) -> EndpointWithSecret | ErrorBody | None:
    """ Registers an endpoint for one agent (`agent_id`; a key's is always its own agent) or, for
    an owner, the whole account. The answer carries its `whsec_` secret, shown only here and on
    rotation. The URL must be public unless the operator allows it (422 `url_refused`). At most
    20 per account (409).

    Args:
        body (EndpointInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointWithSecret | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
