"""A webhook receiver on loopback that checks every delivery with the `svix` library.

Paths: /ok answers 204, /fail answers 500, /slow waits 15 s before answering 204. Control:
POST /_secrets with a JSON list of `whsec_` secrets to verify against; GET /_received returns
what arrived: [{"path", "id", "type", "data", "verified": [secret index, ...]}].

usage: webhook_receiver.py [PORT]   (prints {"port": N} once listening)
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from svix.webhooks import Webhook, WebhookVerificationError

secrets = []
received = []
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _answer(self, code, body=b""):
        self.send_response(code)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with lock:
            body = json.dumps(received).encode()
        self._answer(200, body)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if self.path == "/_secrets":
            with lock:
                secrets[:] = json.loads(body)
            return self._answer(204)
        verified = []
        for i, secret in enumerate(list(secrets)):
            try:
                Webhook(secret).verify(body, dict(self.headers.items()))
                verified.append(i)
            except WebhookVerificationError:
                pass
        payload = json.loads(body)
        with lock:
            received.append({"path": self.path, "id": self.headers.get("webhook-id"), "type": payload.get("type"),
                             "data": payload.get("data"), "agent_id": payload.get("agent_id"), "verified": verified})
        if self.path == "/slow":
            time.sleep(15)
        self._answer(500 if self.path == "/fail" else 204)


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
print(json.dumps({"port": server.server_address[1]}), flush=True)
server.serve_forever()
