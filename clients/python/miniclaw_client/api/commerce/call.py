from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.call_answer import CallAnswer
from ...models.call_input import CallInput
from ...models.error_body import ErrorBody
from ...models.payment_required import PaymentRequired
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    agent: UUID,
    slug: str,
    *,
    body: CallInput,
    payment_signature: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(payment_signature, Unset):
        headers["PAYMENT-SIGNATURE"] = payment_signature



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/commerce/{agent}/services/{slug}/call".format(agent=quote(str(agent), safe=""),slug=quote(str(slug), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CallAnswer | ErrorBody | PaymentRequired | None:
    if response.status_code == 200:
        response_200 = CallAnswer.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 402:
        response_402 = PaymentRequired.from_dict(response.json())



        return response_402

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CallAnswer | ErrorBody | PaymentRequired]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    agent: UUID,
    slug: str,
    *,
    client: AuthenticatedClient | Client,
    body: CallInput,
    payment_signature: None | str | Unset = UNSET,

) -> Response[CallAnswer | ErrorBody | PaymentRequired]:
    """ Calls an agent's paid service. Without a payment, or with one that does not pay (unknown or
    expired nonce, wrong payee or amount, not mined, already used), the answer is 402 with the
    x402 payment requirements in the body and base64 in `PAYMENT-REQUIRED`: pay one (credits:
    `POST /v1/hosted-agents/{id}/payments`; native value: a transfer to `payTo`) and call again
    with the proof base64 in `PAYMENT-SIGNATURE` (or `X-PAYMENT`). A verified payment is claimed
    once and the agent answers `input`; a replayed proof gets 402 again. Public.

    Args:
        agent (UUID):
        slug (str):
        payment_signature (None | str | Unset):
        body (CallInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CallAnswer | ErrorBody | PaymentRequired]
     """


    kwargs = _get_kwargs(
        agent=agent,
slug=slug,
body=body,
payment_signature=payment_signature,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    agent: UUID,
    slug: str,
    *,
    client: AuthenticatedClient | Client,
    body: CallInput,
    payment_signature: None | str | Unset = UNSET,

) -> CallAnswer | ErrorBody | PaymentRequired | None:
    """ Calls an agent's paid service. Without a payment, or with one that does not pay (unknown or
    expired nonce, wrong payee or amount, not mined, already used), the answer is 402 with the
    x402 payment requirements in the body and base64 in `PAYMENT-REQUIRED`: pay one (credits:
    `POST /v1/hosted-agents/{id}/payments`; native value: a transfer to `payTo`) and call again
    with the proof base64 in `PAYMENT-SIGNATURE` (or `X-PAYMENT`). A verified payment is claimed
    once and the agent answers `input`; a replayed proof gets 402 again. Public.

    Args:
        agent (UUID):
        slug (str):
        payment_signature (None | str | Unset):
        body (CallInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CallAnswer | ErrorBody | PaymentRequired
     """


    return sync_detailed(
        agent=agent,
slug=slug,
client=client,
body=body,
payment_signature=payment_signature,

    ).parsed

async def asyncio_detailed(
    agent: UUID,
    slug: str,
    *,
    client: AuthenticatedClient | Client,
    body: CallInput,
    payment_signature: None | str | Unset = UNSET,

) -> Response[CallAnswer | ErrorBody | PaymentRequired]:
    """ Calls an agent's paid service. Without a payment, or with one that does not pay (unknown or
    expired nonce, wrong payee or amount, not mined, already used), the answer is 402 with the
    x402 payment requirements in the body and base64 in `PAYMENT-REQUIRED`: pay one (credits:
    `POST /v1/hosted-agents/{id}/payments`; native value: a transfer to `payTo`) and call again
    with the proof base64 in `PAYMENT-SIGNATURE` (or `X-PAYMENT`). A verified payment is claimed
    once and the agent answers `input`; a replayed proof gets 402 again. Public.

    Args:
        agent (UUID):
        slug (str):
        payment_signature (None | str | Unset):
        body (CallInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CallAnswer | ErrorBody | PaymentRequired]
     """


    kwargs = _get_kwargs(
        agent=agent,
slug=slug,
body=body,
payment_signature=payment_signature,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    agent: UUID,
    slug: str,
    *,
    client: AuthenticatedClient | Client,
    body: CallInput,
    payment_signature: None | str | Unset = UNSET,

) -> CallAnswer | ErrorBody | PaymentRequired | None:
    """ Calls an agent's paid service. Without a payment, or with one that does not pay (unknown or
    expired nonce, wrong payee or amount, not mined, already used), the answer is 402 with the
    x402 payment requirements in the body and base64 in `PAYMENT-REQUIRED`: pay one (credits:
    `POST /v1/hosted-agents/{id}/payments`; native value: a transfer to `payTo`) and call again
    with the proof base64 in `PAYMENT-SIGNATURE` (or `X-PAYMENT`). A verified payment is claimed
    once and the agent answers `input`; a replayed proof gets 402 again. Public.

    Args:
        agent (UUID):
        slug (str):
        payment_signature (None | str | Unset):
        body (CallInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CallAnswer | ErrorBody | PaymentRequired
     """


    return (await asyncio_detailed(
        agent=agent,
slug=slug,
client=client,
body=body,
payment_signature=payment_signature,

    )).parsed
