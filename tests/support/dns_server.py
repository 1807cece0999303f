"""A loopback DNS server (dnslib) answering TXT questions from a JSON file read on every
question ({"name": ["text", ...]}), so a test can add a record while it runs. Prints one JSON
line with its port once it listens on UDP and TCP."""

import json
import sys
import time

from dnslib import QTYPE, RCODE, RR, TXT
from dnslib.server import BaseResolver, DNSServer


class FileResolver(BaseResolver):
    def __init__(self, path):
        self.path = path

    def resolve(self, request, handler):
        reply = request.reply()
        try:
            with open(self.path) as f:
                records = json.load(f)
        except (OSError, ValueError):
            records = {}
        name = str(request.q.qname).rstrip(".").lower()
        texts = records.get(name)
        if texts is None:
            reply.header.rcode = RCODE.NXDOMAIN
        elif request.q.qtype == QTYPE.TXT:
            for text in texts:
                reply.add_answer(RR(request.q.qname, QTYPE.TXT, rdata=TXT(text), ttl=60))
        return reply


def main():
    path, port = sys.argv[1], int(sys.argv[2])
    resolver = FileResolver(path)
    for tcp in (False, True):
        DNSServer(resolver, address="127.0.0.1", port=port, tcp=tcp, logger=QuietLogger()).start_thread()
    print(json.dumps({"port": port}), flush=True)
    while True:
        time.sleep(3600)


class QuietLogger:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


if __name__ == "__main__":
    main()
