from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.bundle import Bundle
from ...models.error_body import ErrorBody
from ...models.imported import Imported
from typing import cast



def _get_kwargs(
    *,
    body: Bundle,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/hosted-agents/import",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Imported | None:
    if response.status_code == 200:
        response_200 = Imported.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = Imported.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Imported]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: Bundle,

) -> Response[ErrorBody | Imported]:
    """ Creates an agent from a `miniclaw.agent` bundle or a Letta Agent File (`.af`, either
    generation of the format), told apart by their content. The whole document is checked
    first (400 naming the first bad field, nothing stored) and stored in one transaction. The
    same bytes sent again return the agent they made (200, `created: false`). Skills are
    installed again from this market where they are free and usable here; what did not come
    along is listed in `notes`. Bigger bundles need a bigger `MINICLAW_BODY_LIMIT`.

    Args:
        body (Bundle): One agent, whole: the `miniclaw.agent` format, version 1.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Imported]
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
    body: Bundle,

) -> ErrorBody | Imported | None:
    """ Creates an agent from a `miniclaw.agent` bundle or a Letta Agent File (`.af`, either
    generation of the format), told apart by their content. The whole document is checked
    first (400 naming the first bad field, nothing stored) and stored in one transaction. The
    same bytes sent again return the agent they made (200, `created: false`). Skills are
    installed again from this market where they are free and usable here; what did not come
    along is listed in `notes`. Bigger bundles need a bigger `MINICLAW_BODY_LIMIT`.

    Args:
        body (Bundle): One agent, whole: the `miniclaw.agent` format, version 1.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Imported
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: Bundle,

) -> Response[ErrorBody | Imported]:
    """ Creates an agent from a `miniclaw.agent` bundle or a Letta Agent File (`.af`, either
    generation of the format), told apart by their content. The whole document is checked
    first (400 naming the first bad field, nothing stored) and stored in one transaction. The
    same bytes sent again return the agent they made (200, `created: false`). Skills are
    installed again from this market where they are free and usable here; what did not come
    along is listed in `notes`. Bigger bundles need a bigger `MINICLAW_BODY_LIMIT`.

    Args:
        body (Bundle): One agent, whole: the `miniclaw.agent` format, version 1.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Imported]
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
    body: Bundle,

) -> ErrorBody | Imported | None:
    """ Creates an agent from a `miniclaw.agent` bundle or a Letta Agent File (`.af`, either
    generation of the format), told apart by their content. The whole document is checked
    first (400 naming the first bad field, nothing stored) and stored in one transaction. The
    same bytes sent again return the agent they made (200, `created: false`). Skills are
    installed again from this market where they are free and usable here; what did not come
    along is listed in `notes`. Bigger bundles need a bigger `MINICLAW_BODY_LIMIT`.

    Args:
        body (Bundle): One agent, whole: the `miniclaw.agent` format, version 1.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Imported
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
