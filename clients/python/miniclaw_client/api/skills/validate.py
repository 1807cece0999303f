from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.checked import Checked
from ...models.error_body import ErrorBody
from ...models.skill_source import SkillSource
from typing import cast



def _get_kwargs(
    *,
    body: SkillSource,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/skills/validate",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Checked | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Checked.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Checked | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SkillSource,

) -> Response[Checked | ErrorBody]:
    """ Checks a SKILL.md without publishing it: 200 with what it holds, or 422 `invalid_skill`
    with every problem and its line in `details.problems`.

    Args:
        body (SkillSource): A SKILL.md file.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Checked | ErrorBody]
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
    body: SkillSource,

) -> Checked | ErrorBody | None:
    """ Checks a SKILL.md without publishing it: 200 with what it holds, or 422 `invalid_skill`
    with every problem and its line in `details.problems`.

    Args:
        body (SkillSource): A SKILL.md file.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Checked | ErrorBody
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SkillSource,

) -> Response[Checked | ErrorBody]:
    """ Checks a SKILL.md without publishing it: 200 with what it holds, or 422 `invalid_skill`
    with every problem and its line in `details.problems`.

    Args:
        body (SkillSource): A SKILL.md file.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Checked | ErrorBody]
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
    body: SkillSource,

) -> Checked | ErrorBody | None:
    """ Checks a SKILL.md without publishing it: 200 with what it holds, or 422 `invalid_skill`
    with every problem and its line in `details.problems`.

    Args:
        body (SkillSource): A SKILL.md file.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Checked | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
