"""Schemathesis hooks for scripts/fuzz_nightly.sh (loaded with SCHEMATHESIS_HOOKS=fuzz_hooks).

The webhooks that take only signed deliveries would answer every generated request 401 and the
fuzzing would never reach what reads their bodies. Here each generated delivery is signed as its
sender signs it, over the exact bytes that will be sent (the requests library's JSON encoding of
the generated body):

  POST /webhooks/inbound-email   Svix headers (svix-id, svix-timestamp, svix-signature), made by
                                 the `svix` library with FUZZ_RESEND_WEBHOOK_SECRET (whsec_…);
  POST /webhooks/verification    X-Miniclaw-Timestamp and X-Miniclaw-Signature (sha256= HMAC of
                                 "timestamp.body") with FUZZ_VERIFICATION_WEBHOOK_SECRET;
  POST /webhooks/telegram/{id}   X-Telegram-Bot-Api-Secret-Token: the secret of the last
                                 setWebhook, read from FUZZ_TELEGRAM_SECRET_FILE (written by
                                 tests/support/telegram_api.py).

A variable that is unset leaves its webhook's requests as generated.
"""

import datetime
import hashlib
import hmac
import json
import os
import uuid

import schemathesis
from svix.webhooks import Webhook


def _wire_body(case):
    """The bytes the requests transport sends for a JSON body, or None when it is not JSON."""
    body = case.body
    if isinstance(body, bytes):
        return body
    if body is None:
        return b"null"
    if not isinstance(body, (dict, list, str, int, float, bool)):
        return None  # no body at all
    try:
        return json.dumps(body, allow_nan=False).encode("utf-8")
    except ValueError:
        return None


def _set_headers(case, headers):
    merged = dict(case.headers or {})
    merged.update(headers)
    case.headers = merged


@schemathesis.hook
def before_call(context, case, kwargs):
    path = case.operation.path
    if path == "/webhooks/telegram/{id}":
        secret_file = os.environ.get("FUZZ_TELEGRAM_SECRET_FILE")
        if secret_file and os.path.exists(secret_file):
            with open(secret_file, encoding="utf-8") as f:
                secret = f.read().strip()
            if secret:
                _set_headers(case, {"X-Telegram-Bot-Api-Secret-Token": secret})
        return
    if path not in ("/webhooks/inbound-email", "/webhooks/verification"):
        return
    body = _wire_body(case)
    if body is None:
        return
    now = datetime.datetime.now(datetime.timezone.utc)
    if path == "/webhooks/inbound-email":
        secret = os.environ.get("FUZZ_RESEND_WEBHOOK_SECRET")
        if not secret:
            return
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return  # bytes that are no text (negative cases): sent unsigned, a 401
        msg_id = f"msg_{uuid.uuid4().hex}"
        signature = Webhook(secret).sign(msg_id, now, text)
        _set_headers(case, {"svix-id": msg_id, "svix-timestamp": str(int(now.timestamp())),
                            "svix-signature": signature})
    else:
        secret = os.environ.get("FUZZ_VERIFICATION_WEBHOOK_SECRET")
        if not secret:
            return
        ts = str(int(now.timestamp()))
        mac = hmac.new(secret.encode(), ts.encode() + b"." + body, hashlib.sha256).hexdigest()
        _set_headers(case, {"X-Miniclaw-Timestamp": ts, "X-Miniclaw-Signature": f"sha256={mac}"})
