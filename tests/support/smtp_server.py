"""A real SMTP server on loopback for the email tests (aiosmtpd).

Usage: smtp_server.py PORT DIR
Listens on 127.0.0.1:PORT and writes each message it accepts to DIR as NNNN.eml (the bytes
exactly as received in DATA) with NNNN.json beside it (envelope sender and recipients).
Prints `ready` once listening and stops when its standard input closes.
"""

import json
import os
import sys

from aiosmtpd.controller import Controller


class Saver:
    def __init__(self, out: str) -> None:
        self.out = out
        self.count = 0

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        self.count += 1
        base = os.path.join(self.out, f"{self.count:04d}")
        raw = envelope.original_content or envelope.content
        with open(base + ".json.tmp", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos}, f)
        with open(base + ".eml.tmp", "wb") as f:
            f.write(raw)
        os.rename(base + ".json.tmp", base + ".json")
        os.rename(base + ".eml.tmp", base + ".eml")
        return "250 Message accepted for delivery"


def main() -> None:
    port, out = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Saver(out), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    sys.stdin.read()
    controller.stop()


if __name__ == "__main__":
    main()
