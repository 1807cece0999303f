"""Signs a webhook delivery with the official `svix` package, as Svix (and so Resend) does.

Usage: svix_sign.py SECRET MSG_ID UNIX_TIMESTAMP < body
Prints the `svix-signature` header value (`v1,<base64>`).
"""

import sys
from datetime import datetime, timezone

from svix.webhooks import Webhook


def main() -> None:
    secret, msg_id, timestamp = sys.argv[1], sys.argv[2], int(sys.argv[3])
    body = sys.stdin.buffer.read().decode("utf-8")
    when = datetime.fromtimestamp(timestamp, tz=timezone.utc)
    print(Webhook(secret).sign(msg_id, when, body))


if __name__ == "__main__":
    main()
