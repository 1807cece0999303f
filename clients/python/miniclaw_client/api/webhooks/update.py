from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.endpoint import Endpoint
from ...models.endpoint_patch import EndpointPatch
from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    endpoint: UUID,
    *,
    body: EndpointPatch,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/webhooks/{endpoint}".format(endpoint=quote(str(endpoint), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Endpoint | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Endpoint.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Endpoint | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,
    body: EndpointPatch,

) -> Response[Endpoint | ErrorBody]:
    """ Changes the URL, the events or the description, or turns the endpoint off and on (on again,
    its failure clock starts over).

    Args:
        endpoint (UUID):
        body (EndpointPatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Endpoint | ErrorBody]
     """


    kwargs = _get_kwargs(
        endpoint=endpoint,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,
    body: EndpointPatch,

) -> Endpoint | ErrorBody | None:
    """ Changes the URL, the events or the description, or turns the endpoint off and on (on again,
    its failure clock starts over).

    Args:
        endpoint (UUID):
        body (EndpointPatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Endpoint | ErrorBody
     """


    return sync_detailed(
        endpoint=endpoint,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,
    body: EndpointPatch,

) -> Response[Endpoint | ErrorBody]:
    """ Changes the URL, the events or the description, or turns the endpoint off and on (on again,
    its failure clock starts over).

    Args:
        endpoint (UUID):
        body (EndpointPatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Endpoint | ErrorBody]
     """


    kwargs = _get_kwargs(
        endpoint=endpoint,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    endpoint: UUID,
    *,
    client: AuthenticatedClient,
    body: EndpointPatch,

) -> Endpoint | ErrorBody | None:
    """ Changes the URL, the events or the description, or turns the endpoint off and on (on again,
    its failure clock starts over).

    Args:
        endpoint (UUID):
        body (EndpointPatch):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Endpoint | ErrorBody
     """


    return (await asyncio_detailed(
        endpoint=endpoint,
client=client,
body=body,

    )).parsed
