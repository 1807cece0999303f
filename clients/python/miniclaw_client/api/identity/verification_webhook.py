from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.verification_record import VerificationRecord
from ...models.webhook_delivery import WebhookDelivery
from typing import cast



def _get_kwargs(
    *,
    body: WebhookDelivery,
    x_miniclaw_timestamp: str,
    x_miniclaw_signature: str,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Miniclaw-Timestamp"] = x_miniclaw_timestamp

    headers["X-Miniclaw-Signature"] = x_miniclaw_signature



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/verification",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | VerificationRecord | None:
    if response.status_code == 200:
        response_200 = VerificationRecord.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = VerificationRecord.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | VerificationRecord]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: WebhookDelivery,
    x_miniclaw_timestamp: str,
    x_miniclaw_signature: str,

) -> Response[ErrorBody | VerificationRecord]:
    """ A provider reports a verification result. Signed with HMAC-SHA256 under
    `MINICLAW_VERIFICATION_WEBHOOK_SECRET` over `"{X-Miniclaw-Timestamp}.{raw body}"`, sent as
    `X-Miniclaw-Signature: sha256=<hex>`; deliveries more than 5 minutes from the server's clock
    are refused (401). The same delivery sent again returns its record (200) instead of recording
    it twice. 404 while the secret is not configured.

    Args:
        x_miniclaw_timestamp (str):
        x_miniclaw_signature (str):
        body (WebhookDelivery): A provider's delivery to the verification webhook.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | VerificationRecord]
     """


    kwargs = _get_kwargs(
        body=body,
x_miniclaw_timestamp=x_miniclaw_timestamp,
x_miniclaw_signature=x_miniclaw_signature,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body: WebhookDelivery,
    x_miniclaw_timestamp: str,
    x_miniclaw_signature: str,

) -> ErrorBody | VerificationRecord | None:
    """ A provider reports a verification result. Signed with HMAC-SHA256 under
    `MINICLAW_VERIFICATION_WEBHOOK_SECRET` over `"{X-Miniclaw-Timestamp}.{raw body}"`, sent as
    `X-Miniclaw-Signature: sha256=<hex>`; deliveries more than 5 minutes from the server's clock
    are refused (401). The same delivery sent again returns its record (200) instead of recording
    it twice. 404 while the secret is not configured.

    Args:
        x_miniclaw_timestamp (str):
        x_miniclaw_signature (str):
        body (WebhookDelivery): A provider's delivery to the verification webhook.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | VerificationRecord
     """


    return sync_detailed(
        client=client,
body=body,
x_miniclaw_timestamp=x_miniclaw_timestamp,
x_miniclaw_signature=x_miniclaw_signature,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: WebhookDelivery,
    x_miniclaw_timestamp: str,
    x_miniclaw_signature: str,

) -> Response[ErrorBody | VerificationRecord]:
    """ A provider reports a verification result. Signed with HMAC-SHA256 under
    `MINICLAW_VERIFICATION_WEBHOOK_SECRET` over `"{X-Miniclaw-Timestamp}.{raw body}"`, sent as
    `X-Miniclaw-Signature: sha256=<hex>`; deliveries more than 5 minutes from the server's clock
    are refused (401). The same delivery sent again returns its record (200) instead of recording
    it twice. 404 while the secret is not configured.

    Args:
        x_miniclaw_timestamp (str):
        x_miniclaw_signature (str):
        body (WebhookDelivery): A provider's delivery to the verification webhook.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | VerificationRecord]
     """


    kwargs = _get_kwargs(
        body=body,
x_miniclaw_timestamp=x_miniclaw_timestamp,
x_miniclaw_signature=x_miniclaw_signature,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: WebhookDelivery,
    x_miniclaw_timestamp: str,
    x_miniclaw_signature: str,

) -> ErrorBody | VerificationRecord | None:
    """ A provider reports a verification result. Signed with HMAC-SHA256 under
    `MINICLAW_VERIFICATION_WEBHOOK_SECRET` over `"{X-Miniclaw-Timestamp}.{raw body}"`, sent as
    `X-Miniclaw-Signature: sha256=<hex>`; deliveries more than 5 minutes from the server's clock
    are refused (401). The same delivery sent again returns its record (200) instead of recording
    it twice. 404 while the secret is not configured.

    Args:
        x_miniclaw_timestamp (str):
        x_miniclaw_signature (str):
        body (WebhookDelivery): A provider's delivery to the verification webhook.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | VerificationRecord
     """


    return (await asyncio_detailed(
        client=client,
body=body,
x_miniclaw_timestamp=x_miniclaw_timestamp,
x_miniclaw_signature=x_miniclaw_signature,

    )).parsed
