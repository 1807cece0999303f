from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.member import Member
from ...models.role_change import RoleChange
from typing import cast
from uuid import UUID



def _get_kwargs(
    member: UUID,
    *,
    body: RoleChange,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/team/members/{member}".format(member=quote(str(member), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Member | None:
    if response.status_code == 200:
        response_200 = Member.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Member]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    member: UUID,
    *,
    client: AuthenticatedClient,
    body: RoleChange,

) -> Response[ErrorBody | Member]:
    """ Gives a member another role (admins and owners; only an owner makes or unmakes an owner).
    409 when the team would be left without one.

    Args:
        member (UUID):
        body (RoleChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Member]
     """


    kwargs = _get_kwargs(
        member=member,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    member: UUID,
    *,
    client: AuthenticatedClient,
    body: RoleChange,

) -> ErrorBody | Member | None:
    """ Gives a member another role (admins and owners; only an owner makes or unmakes an owner).
    409 when the team would be left without one.

    Args:
        member (UUID):
        body (RoleChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Member
     """


    return sync_detailed(
        member=member,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    member: UUID,
    *,
    client: AuthenticatedClient,
    body: RoleChange,

) -> Response[ErrorBody | Member]:
    """ Gives a member another role (admins and owners; only an owner makes or unmakes an owner).
    409 when the team would be left without one.

    Args:
        member (UUID):
        body (RoleChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Member]
     """


    kwargs = _get_kwargs(
        member=member,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    member: UUID,
    *,
    client: AuthenticatedClient,
    body: RoleChange,

) -> ErrorBody | Member | None:
    """ Gives a member another role (admins and owners; only an owner makes or unmakes an owner).
    409 when the team would be left without one.

    Args:
        member (UUID):
        body (RoleChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Member
     """


    return (await asyncio_detailed(
        member=member,
client=client,
body=body,

    )).parsed
