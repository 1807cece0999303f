from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.challenge import Challenge
from ...models.connect_challenge_request import ConnectChallengeRequest
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    *,
    body: ConnectChallengeRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/gateway/challenge",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Challenge | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Challenge.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Challenge | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ConnectChallengeRequest,

) -> Response[Challenge | ErrorBody]:
    """ Issues a single-use nonce and the exact message to sign (valid 5 minutes). The message
    names the key that a connect with it will issue (agent, name, scopes, expiry), so a
    signature authorises that key and nothing more.

    Args:
        body (ConnectChallengeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Challenge | ErrorBody]
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
    client: AuthenticatedClient | Client,
    body: ConnectChallengeRequest,

) -> Challenge | ErrorBody | None:
    """ Issues a single-use nonce and the exact message to sign (valid 5 minutes). The message
    names the key that a connect with it will issue (agent, name, scopes, expiry), so a
    signature authorises that key and nothing more.

    Args:
        body (ConnectChallengeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Challenge | ErrorBody
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ConnectChallengeRequest,

) -> Response[Challenge | ErrorBody]:
    """ Issues a single-use nonce and the exact message to sign (valid 5 minutes). The message
    names the key that a connect with it will issue (agent, name, scopes, expiry), so a
    signature authorises that key and nothing more.

    Args:
        body (ConnectChallengeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Challenge | ErrorBody]
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
    client: AuthenticatedClient | Client,
    body: ConnectChallengeRequest,

) -> Challenge | ErrorBody | None:
    """ Issues a single-use nonce and the exact message to sign (valid 5 minutes). The message
    names the key that a connect with it will issue (agent, name, scopes, expiry), so a
    signature authorises that key and nothing more.

    Args:
        body (ConnectChallengeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Challenge | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
