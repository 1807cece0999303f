from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.task import Task
from ...models.task_input import TaskInput
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    task: UUID,
    *,
    body: TaskInput,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/hosted-agents/{id}/tasks/{task}".format(id=quote(str(id), safe=""),task=quote(str(task), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Task | None:
    if response.status_code == 200:
        response_200 = Task.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Task]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    task: UUID,
    *,
    client: AuthenticatedClient,
    body: TaskInput,

) -> Response[ErrorBody | Task]:
    """ Changes a live task's title, detail or due date (409 once done or rejected). Key scope:
    `tasks:write`.

    Args:
        id (UUID):
        task (UUID):
        body (TaskInput): A new task, or changed fields of one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Task]
     """


    kwargs = _get_kwargs(
        id=id,
task=task,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    task: UUID,
    *,
    client: AuthenticatedClient,
    body: TaskInput,

) -> ErrorBody | Task | None:
    """ Changes a live task's title, detail or due date (409 once done or rejected). Key scope:
    `tasks:write`.

    Args:
        id (UUID):
        task (UUID):
        body (TaskInput): A new task, or changed fields of one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Task
     """


    return sync_detailed(
        id=id,
task=task,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    task: UUID,
    *,
    client: AuthenticatedClient,
    body: TaskInput,

) -> Response[ErrorBody | Task]:
    """ Changes a live task's title, detail or due date (409 once done or rejected). Key scope:
    `tasks:write`.

    Args:
        id (UUID):
        task (UUID):
        body (TaskInput): A new task, or changed fields of one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Task]
     """


    kwargs = _get_kwargs(
        id=id,
task=task,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    task: UUID,
    *,
    client: AuthenticatedClient,
    body: TaskInput,

) -> ErrorBody | Task | None:
    """ Changes a live task's title, detail or due date (409 once done or rejected). Key scope:
    `tasks:write`.

    Args:
        id (UUID):
        task (UUID):
        body (TaskInput): A new task, or changed fields of one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Task
     """


    return (await asyncio_detailed(
        id=id,
task=task,
client=client,
body=body,

    )).parsed
