#!/usr/bin/env python3
"""The soak load (scripts/soak.sh runs it): a mixed chat / memory / search load at a fixed rate
against a running miniclaw, sampling the server's memory and connections every SAMPLE seconds.

Writes a CSV (one row per sample) and prints a summary: the first and last windows' averages
(10 minutes each, or a third of a shorter run), the maxima, and a verdict. Exits 1 on any 5xx,
on refused (4xx) or unanswered requests beyond 1 %, or when resident memory or connections grow
between the windows beyond the allowed margin. Standard library only.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

WORDS = ("garden tomato chess vienna river violin coffee marathon python budget holiday painting "
         "mountain bicycle novel recipe sunrise harbour lantern meadow").split()


class Load:
    def __init__(self, base, keys):
        self.base, self.keys, self.agents = base, keys, list(keys)
        self.lock = threading.Lock()
        self.conversations = {a: [None, 0] for a in self.agents}
        self.memories = {a: [] for a in self.agents}
        self.refusals = {}  # (what, status, code) -> count, for every answer that is not a 2xx
        self.reset()

    def reset(self):
        with self.lock:
            self.sent = 0
            self.by_class = {"2xx": 0, "4xx": 0, "5xx": 0, "failed": 0}
            self.latencies = []

    def call(self, what, agent, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("authorization", "Bearer " + self.keys[agent])
        if data is not None:
            req.add_header("content-type", "application/json")
        started = time.monotonic()
        status, payload = 0, None
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status = r.status
                raw = r.read()
                payload = json.loads(raw) if raw else None
        except urllib.error.HTTPError as e:
            status = e.code
            try:
                code = json.loads(e.read()).get("error", {}).get("code", "?")
            except ValueError:
                code = "?"
            with self.lock:
                key = (what, status, code)
                self.refusals[key] = self.refusals.get(key, 0) + 1
        except Exception:  # a refused, reset or timed-out request
            status = 0
        took = (time.monotonic() - started) * 1000
        with self.lock:
            self.sent += 1
            self.latencies.append(took)
            key = "failed" if status == 0 else f"{status // 100}xx"
            self.by_class[key] = self.by_class.get(key, 0) + 1
        return status, payload

    def one(self):
        agent = random.choice(self.agents)
        p = f"/v1/hosted-agents/{agent}"
        roll = random.random()
        words = " ".join(random.sample(WORDS, 4))
        if roll < 0.30:
            with self.lock:
                conv = self.conversations[agent]
                cid = conv[0] if conv[1] < 20 else None
            status, body = self.call("chat", agent, "POST", p + "/chat", {"message": f"I like {words}.", "conversation_id": cid})
            if status == 200 and body:
                with self.lock:
                    same = body.get("conversation_id") == conv[0]
                    self.conversations[agent] = [body.get("conversation_id"), conv[1] + 1 if same else 1]
        elif roll < 0.50:
            status, body = self.call("remember", agent, "POST", p + "/memories",
                                     {"content": f"The user mentioned {words} at {time.time():.3f}", "category": "context"})
            if status == 201 and body:
                with self.lock:
                    self.memories[agent].append(body["id"])
        elif roll < 0.80:
            self.call("search", agent, "POST", p + "/memories/search", {"query": words})
        elif roll < 0.90:
            self.call("list memories", agent, "GET", p + "/memories")
        elif roll < 0.95:
            with self.lock:
                cid = self.conversations[agent][0]
            self.call("read chat", agent, "GET", p + (f"/conversations/{cid}/messages" if cid else "/conversations"))
        else:
            with self.lock:
                mid = self.memories[agent].pop(0) if len(self.memories[agent]) > 50 else None
            if mid:
                self.call("forget", agent, "DELETE", p + f"/memories/{mid}")
            else:
                self.call("read chat", agent, "GET", p + "/conversations")


def sample(pid, db_url):
    status = open(f"/proc/{pid}/status").read()
    field = lambda name: int(next(l.split()[1] for l in status.splitlines() if l.startswith(name + ":")))
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    ss = subprocess.run(["ss", "-Htanp", "state", "established"], capture_output=True, text=True).stdout
    mine = [l for l in ss.splitlines() if f"pid={pid}," in l]
    pg_port = db_url.rsplit(":", 1)[1].split("/")[0] if db_url.count(":") >= 2 else "5432"
    to_pg = sum(1 for l in mine if l.split()[3].endswith(":" + pg_port))
    pg = subprocess.run(["psql", "-Atq", db_url, "-c",
                         "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"],
                        capture_output=True, text=True).stdout.strip()
    return {"rss_kb": field("VmRSS"), "threads": field("Threads"), "fds": fds, "tcp": len(mine),
            "tcp_to_pg": to_pg, "pg_sessions": int(pg or 0)}


def pct(values, q):
    if not values:
        return 0.0
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--agents", required=True, help="comma-separated agent-id:api-key pairs (keys do not expire)")
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--db-url", required=True)
    ap.add_argument("--secs", type=int, default=3600)
    ap.add_argument("--rate", type=float, default=5.0)
    ap.add_argument("--sample", type=int, default=30)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--rss-growth", type=float, default=0.25, help="allowed growth of resident memory")
    a = ap.parse_args()

    load = Load(a.base, dict(pair.split(":", 1) for pair in a.agents.split(",")))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=32)
    rows = []
    start = time.monotonic()
    next_sample = start + a.sample
    n = 0
    out = open(a.csv, "w", newline="")
    writer = csv.writer(out)
    cols = ["t_secs", "rss_kb", "threads", "fds", "tcp", "tcp_to_pg", "pg_sessions", "requests", "ok_2xx",
            "client_4xx", "server_5xx", "failed", "p50_ms", "p99_ms"]
    writer.writerow(cols)
    while True:
        now = time.monotonic()
        if now - start >= a.secs:
            break
        # A fixed rate: request n is due at start + n / rate, whatever earlier ones took.
        due = start + n / a.rate
        if now < due:
            time.sleep(min(due - now, max(0.0, next_sample - now)) or 0.001)
        else:
            pool.submit(load.one)
            n += 1
        if time.monotonic() >= next_sample:
            with load.lock:
                sent, by, lat = load.sent, dict(load.by_class), list(load.latencies)
            load.reset()
            s = sample(a.pid, a.db_url)
            row = {"t_secs": round(time.monotonic() - start), **s, "requests": sent, "ok_2xx": by.get("2xx", 0),
                   "client_4xx": by.get("4xx", 0), "server_5xx": by.get("5xx", 0), "failed": by.get("failed", 0),
                   "p50_ms": round(pct(lat, 0.5), 1), "p99_ms": round(pct(lat, 0.99), 1)}
            rows.append(row)
            writer.writerow([row[c] for c in cols])
            out.flush()
            print(" ".join(f"{c}={row[c]}" for c in cols), flush=True)
            next_sample += a.sample
    pool.shutdown(wait=True)
    out.close()

    window = max(1, min(600 // a.sample, len(rows) // 3))
    first, last = rows[:window], rows[-window:]
    avg = lambda rs, c: sum(r[c] for r in rs) / max(1, len(rs))
    total = {c: sum(r[c] for r in rows) for c in ("requests", "ok_2xx", "client_4xx", "server_5xx", "failed")}
    print(f"\nsoak: {a.secs} s at {a.rate}/s, {total['requests']} requests: {total['ok_2xx']} 2xx, "
          f"{total['client_4xx']} 4xx, {total['server_5xx']} 5xx, {total['failed']} failed")
    print(f"windows of {window * a.sample} s        first     last      max")
    for c in ("rss_kb", "threads", "fds", "tcp", "tcp_to_pg", "pg_sessions", "p50_ms", "p99_ms"):
        print(f"  {c:<14} {avg(first, c):>9.1f} {avg(last, c):>9.1f} {max(r[c] for r in rows):>9}")
    for (what, status, code), count in sorted(load.refusals.items()):
        print(f"  {count} x {what}: {status} {code}")
    problems = []
    if total["server_5xx"]:
        problems.append(f"{total['server_5xx']} server errors")
    if total["client_4xx"] > 0.01 * max(1, total["requests"]):
        problems.append(f"{total['client_4xx']} requests refused (4xx): the load is not what it should be")
    if total["failed"] > 0.01 * max(1, total["requests"]):
        problems.append(f"{total['failed']} requests failed without an answer")
    if avg(last, "rss_kb") > avg(first, "rss_kb") * (1 + a.rss_growth):
        problems.append(f"resident memory grew more than {a.rss_growth:.0%}")
    for c in ("fds", "tcp", "pg_sessions"):
        if avg(last, c) > avg(first, c) * 1.5 + 5:
            problems.append(f"{c} grew")
    print("verdict: " + ("flat, no server errors" if not problems else "; ".join(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
