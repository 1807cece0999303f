from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.suspension import Suspension
from typing import cast
from uuid import UUID



def _get_kwargs(
    tenant: UUID,
    *,
    body: Suspension,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/admin/tenants/{tenant}/suspension".format(tenant=quote(str(tenant), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

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
    tenant: UUID,
    *,
    client: AuthenticatedClient,
    body: Suspension,

) -> Response[Any | ErrorBody]:
    """ Suspends a tenant: its owners' sessions end and they cannot sign in, its keys are refused
    (403 `account_suspended`), its model calls stop (the tenant's kill switch, with the reason),
    its jobs (mail, webhook deliveries, cycles) stay queued. Nothing is deleted. 404 for an
    unknown tenant.

    Args:
        tenant (UUID):
        body (Suspension):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: UUID,
    *,
    client: AuthenticatedClient,
    body: Suspension,

) -> Any | ErrorBody | None:
    """ Suspends a tenant: its owners' sessions end and they cannot sign in, its keys are refused
    (403 `account_suspended`), its model calls stop (the tenant's kill switch, with the reason),
    its jobs (mail, webhook deliveries, cycles) stay queued. Nothing is deleted. 404 for an
    unknown tenant.

    Args:
        tenant (UUID):
        body (Suspension):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return sync_detailed(
        tenant=tenant,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    tenant: UUID,
    *,
    client: AuthenticatedClient,
    body: Suspension,

) -> Response[Any | ErrorBody]:
    """ Suspends a tenant: its owners' sessions end and they cannot sign in, its keys are refused
    (403 `account_suspended`), its model calls stop (the tenant's kill switch, with the reason),
    its jobs (mail, webhook deliveries, cycles) stay queued. Nothing is deleted. 404 for an
    unknown tenant.

    Args:
        tenant (UUID):
        body (Suspension):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: UUID,
    *,
    client: AuthenticatedClient,
    body: Suspension,

) -> Any | ErrorBody | None:
    """ Suspends a tenant: its owners' sessions end and they cannot sign in, its keys are refused
    (403 `account_suspended`), its model calls stop (the tenant's kill switch, with the reason),
    its jobs (mail, webhook deliveries, cycles) stay queued. Nothing is deleted. 404 for an
    unknown tenant.

    Args:
        tenant (UUID):
        body (Suspension):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return (await asyncio_detailed(
        tenant=tenant,
client=client,
body=body,

    )).parsed
