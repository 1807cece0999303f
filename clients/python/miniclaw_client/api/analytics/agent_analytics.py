from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.analytics import Analytics
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    granularity: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params["granularity"] = granularity


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/hosted-agents/{id}/analytics".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Analytics | ErrorBody | None:
    if response.status_code == 200:
        response_200 = Analytics.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Analytics | ErrorBody]:
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
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    granularity: str | Unset = UNSET,

) -> Response[Analytics | ErrorBody]:
    """ The agent's analytics over a range: messages, cost per message, latency p50/p95 (whole turn
    and per stage), triage skip rate and reasons, extraction rate, facts per extraction, dedup
    outcomes, intents, response styles, finish reasons, channels, models, error rate; every model
    call by model and call type; the memory categories now; and a point per hour or day. Read
    from hourly rollups (percentiles within 5 %). Key scope: `analytics:read`.

    Args:
        id (UUID):
        from_ (str | Unset):
        to (str | Unset):
        granularity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Analytics | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
from_=from_,
to=to,
granularity=granularity,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    granularity: str | Unset = UNSET,

) -> Analytics | ErrorBody | None:
    """ The agent's analytics over a range: messages, cost per message, latency p50/p95 (whole turn
    and per stage), triage skip rate and reasons, extraction rate, facts per extraction, dedup
    outcomes, intents, response styles, finish reasons, channels, models, error rate; every model
    call by model and call type; the memory categories now; and a point per hour or day. Read
    from hourly rollups (percentiles within 5 %). Key scope: `analytics:read`.

    Args:
        id (UUID):
        from_ (str | Unset):
        to (str | Unset):
        granularity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Analytics | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
from_=from_,
to=to,
granularity=granularity,

    ).parsed

async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    granularity: str | Unset = UNSET,

) -> Response[Analytics | ErrorBody]:
    """ The agent's analytics over a range: messages, cost per message, latency p50/p95 (whole turn
    and per stage), triage skip rate and reasons, extraction rate, facts per extraction, dedup
    outcomes, intents, response styles, finish reasons, channels, models, error rate; every model
    call by model and call type; the memory categories now; and a point per hour or day. Read
    from hourly rollups (percentiles within 5 %). Key scope: `analytics:read`.

    Args:
        id (UUID):
        from_ (str | Unset):
        to (str | Unset):
        granularity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Analytics | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
from_=from_,
to=to,
granularity=granularity,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    granularity: str | Unset = UNSET,

) -> Analytics | ErrorBody | None:
    """ The agent's analytics over a range: messages, cost per message, latency p50/p95 (whole turn
    and per stage), triage skip rate and reasons, extraction rate, facts per extraction, dedup
    outcomes, intents, response styles, finish reasons, channels, models, error rate; every model
    call by model and call type; the memory categories now; and a point per hour or day. Read
    from hourly rollups (percentiles within 5 %). Key scope: `analytics:read`.

    Args:
        id (UUID):
        from_ (str | Unset):
        to (str | Unset):
        granularity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Analytics | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
from_=from_,
to=to,
granularity=granularity,

    )).parsed
