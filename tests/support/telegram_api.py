"""A Telegram Bot API on loopback for the long-running checks (scripts/fuzz_nightly.sh), in the
documented shapes: `POST /bot<token>/<method>` answers `{"ok": true, "result": ...}` for
`getMe`, `setWebhook`, `deleteWebhook` and `sendMessage`, and `{"ok": false, "error_code": 404,
"description": "Not Found"}` for any other method. The secret token of the last `setWebhook`
is written to SECRET_FILE, so that a client can sign the updates it sends to the webhook as
Telegram would (`X-Telegram-Bot-Api-Secret-Token`).

usage: telegram_api.py SECRET_FILE [PORT]   (prints {"port": N} once listening)
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
message_id = 0


class Handler(BaseHTTPRequestHandler):
    secret_file = None

    def log_message(self, *args):
        pass

    def _answer(self, code, payload):
        body = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        global message_id
        raw = self.rfile.read(int(self.headers.get("content-length", "0") or "0"))
        try:
            params = json.loads(raw or b"{}")
        except ValueError:
            params = {}
        parts = self.path.strip("/").split("/")
        if len(parts) != 2 or not parts[0].startswith("bot"):
            return self._answer(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        method = parts[1]
        if method == "getMe":
            result = {"id": 123456789, "is_bot": True, "first_name": "Fuzz", "username": "fuzz_test_bot"}
        elif method == "setWebhook":
            secret = params.get("secret_token") or ""
            with lock, open(self.secret_file, "w") as f:
                f.write(secret)
            result = True
        elif method == "deleteWebhook":
            result = True
        elif method == "sendMessage":
            with lock:
                message_id += 1
                mid = message_id
            result = {"message_id": mid, "date": int(time.time()),
                      "chat": {"id": params.get("chat_id"), "type": "private"}, "text": params.get("text", "")}
        else:
            return self._answer(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        self._answer(200, {"ok": True, "result": result})


def main():
    Handler.secret_file = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
