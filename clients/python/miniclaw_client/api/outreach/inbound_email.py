from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.inbound_email import InboundEmail
from ...models.outcome import Outcome
from typing import cast



def _get_kwargs(
    *,
    body: InboundEmail,
    svix_id: str,
    svix_timestamp: str,
    svix_signature: str,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["svix-id"] = svix_id

    headers["svix-timestamp"] = svix_timestamp

    headers["svix-signature"] = svix_signature



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/inbound-email",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Outcome | None:
    if response.status_code == 200:
        response_200 = Outcome(response.json())



        return response_200

    if response.status_code == 202:
        response_202 = Outcome(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())



        return response_413

    if response.status_code == 502:
        response_502 = ErrorBody.from_dict(response.json())



        return response_502

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Outcome]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: InboundEmail,
    svix_id: str,
    svix_timestamp: str,
    svix_signature: str,

) -> Response[ErrorBody | Outcome]:
    """ Receives an email (a reply to outreach). Signed the Svix way with `RESEND_WEBHOOK_SECRET`
    (`whsec_…`): `svix-signature` holds `v1,<base64 HMAC-SHA256 of "{svix-id}.{svix-timestamp}.{body}">`
    entries (any may match), and the timestamp must be within 5 minutes. The body is a Resend
    `email.received` event (its email is fetched from Resend's receiving API, which needs
    `RESEND_API_KEY`; 502 when Resend fails, so the event is delivered again) or the plain form
    `{from, to, subject, text, message_id, in_reply_to, references}`. The reply is matched to its
    thread and stored with the job that answers it (200 `received`); the job runs it through
    the agent's chat pipeline and auto-replies or escalates, in the background, so nothing is
    lost if the process stops after this answer. A reply matching no thread, or another Resend
    event, is 202 and reaches no agent; a redelivery is 200 with `duplicate`. 401 when the signature is
    missing, wrong or stale; 404
    while the secret is not configured.

    Args:
        svix_id (str):
        svix_timestamp (str):
        svix_signature (str):
        body (InboundEmail): An inbound email, whatever provider delivered it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Outcome]
     """


    kwargs = _get_kwargs(
        body=body,
svix_id=svix_id,
svix_timestamp=svix_timestamp,
svix_signature=svix_signature,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body: InboundEmail,
    svix_id: str,
    svix_timestamp: str,
    svix_signature: str,

) -> ErrorBody | Outcome | None:
    """ Receives an email (a reply to outreach). Signed the Svix way with `RESEND_WEBHOOK_SECRET`
    (`whsec_…`): `svix-signature` holds `v1,<base64 HMAC-SHA256 of "{svix-id}.{svix-timestamp}.{body}">`
    entries (any may match), and the timestamp must be within 5 minutes. The body is a Resend
    `email.received` event (its email is fetched from Resend's receiving API, which needs
    `RESEND_API_KEY`; 502 when Resend fails, so the event is delivered again) or the plain form
    `{from, to, subject, text, message_id, in_reply_to, references}`. The reply is matched to its
    thread and stored with the job that answers it (200 `received`); the job runs it through
    the agent's chat pipeline and auto-replies or escalates, in the background, so nothing is
    lost if the process stops after this answer. A reply matching no thread, or another Resend
    event, is 202 and reaches no agent; a redelivery is 200 with `duplicate`. 401 when the signature is
    missing, wrong or stale; 404
    while the secret is not configured.

    Args:
        svix_id (str):
        svix_timestamp (str):
        svix_signature (str):
        body (InboundEmail): An inbound email, whatever provider delivered it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Outcome
     """


    return sync_detailed(
        client=client,
body=body,
svix_id=svix_id,
svix_timestamp=svix_timestamp,
svix_signature=svix_signature,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: InboundEmail,
    svix_id: str,
    svix_timestamp: str,
    svix_signature: str,

) -> Response[ErrorBody | Outcome]:
    """ Receives an email (a reply to outreach). Signed the Svix way with `RESEND_WEBHOOK_SECRET`
    (`whsec_…`): `svix-signature` holds `v1,<base64 HMAC-SHA256 of "{svix-id}.{svix-timestamp}.{body}">`
    entries (any may match), and the timestamp must be within 5 minutes. The body is a Resend
    `email.received` event (its email is fetched from Resend's receiving API, which needs
    `RESEND_API_KEY`; 502 when Resend fails, so the event is delivered again) or the plain form
    `{from, to, subject, text, message_id, in_reply_to, references}`. The reply is matched to its
    thread and stored with the job that answers it (200 `received`); the job runs it through
    the agent's chat pipeline and auto-replies or escalates, in the background, so nothing is
    lost if the process stops after this answer. A reply matching no thread, or another Resend
    event, is 202 and reaches no agent; a redelivery is 200 with `duplicate`. 401 when the signature is
    missing, wrong or stale; 404
    while the secret is not configured.

    Args:
        svix_id (str):
        svix_timestamp (str):
        svix_signature (str):
        body (InboundEmail): An inbound email, whatever provider delivered it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Outcome]
     """


    kwargs = _get_kwargs(
        body=body,
svix_id=svix_id,
svix_timestamp=svix_timestamp,
svix_signature=svix_signature,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: InboundEmail,
    svix_id: str,
    svix_timestamp: str,
    svix_signature: str,

) -> ErrorBody | Outcome | None:
    """ Receives an email (a reply to outreach). Signed the Svix way with `RESEND_WEBHOOK_SECRET`
    (`whsec_…`): `svix-signature` holds `v1,<base64 HMAC-SHA256 of "{svix-id}.{svix-timestamp}.{body}">`
    entries (any may match), and the timestamp must be within 5 minutes. The body is a Resend
    `email.received` event (its email is fetched from Resend's receiving API, which needs
    `RESEND_API_KEY`; 502 when Resend fails, so the event is delivered again) or the plain form
    `{from, to, subject, text, message_id, in_reply_to, references}`. The reply is matched to its
    thread and stored with the job that answers it (200 `received`); the job runs it through
    the agent's chat pipeline and auto-replies or escalates, in the background, so nothing is
    lost if the process stops after this answer. A reply matching no thread, or another Resend
    event, is 202 and reaches no agent; a redelivery is 200 with `duplicate`. 401 when the signature is
    missing, wrong or stale; 404
    while the secret is not configured.

    Args:
        svix_id (str):
        svix_timestamp (str):
        svix_signature (str):
        body (InboundEmail): An inbound email, whatever provider delivered it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Outcome
     """


    return (await asyncio_detailed(
        client=client,
body=body,
svix_id=svix_id,
svix_timestamp=svix_timestamp,
svix_signature=svix_signature,

    )).parsed
