#!/usr/bin/env python3
"""How much of the API a fuzzing run reached, from the server's own request counter.

    scripts/fuzz_coverage.py --base http://127.0.0.1:PORT --schema openapi/openapi.json [--json]
        [--baseline BEFORE.json] [--save BEFORE.json]

Reads `http_requests_total{method,route,status}` from `$BASE/metrics` (Prometheus text; `route`
is the axum route template, e.g. `/v1/hosted-agents/{id}/memories/{mid}`) and, for every
operation of the OpenAPI document, counts:

  ok       answered 2xx at least once;
  reached  got to its handler: a 2xx, or a 4xx other than 401, 403, 404 and 405 (a 404 is
           left out: the metric cannot tell a handler's "not found" from a missing resource's);
  total    the operations of the document.

Prints one line `fuzz_coverage: OK ok / REACHED reached / TOTAL operations` and the operations
not ok and not reached with the statuses they got; with `--json`, one JSON object instead.
`--save FILE` writes the counters as they are now (e.g. after seeding) and prints nothing
else; `--baseline FILE` counts only what came after that snapshot. Standard library only.
"""

import argparse
import json
import re
import sys
import urllib.request

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
NOT_REACHED = {401, 403, 404, 405}
LINE = re.compile(r"^http_requests_total\{(?P<labels>.*)\}\s+(?P<value>\S+)")
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def fetch_metrics(base, timeout=30):
    with urllib.request.urlopen(base.rstrip("/") + "/metrics", timeout=timeout) as resp:
        return resp.read().decode("utf-8", "replace")


def parse(text):
    """{(METHOD, route, status): count}."""
    counts = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        labels = {k: re.sub(r"\\(.)", lambda e: "\n" if e.group(1) == "n" else e.group(1), v)
                  for k, v in LABEL.findall(m.group("labels"))}
        try:
            value = float(m.group("value"))
            status = int(labels.get("status", "0"))
        except ValueError:
            continue
        key = (labels.get("method", "").upper(), labels.get("route", ""), status)
        counts[key] = counts.get(key, 0) + value
    return counts


def shape(template):
    """A template with its parameter names dropped (axum's `:name` and `*name` too)."""
    t = re.sub(r"\{[^}]*\}", "{}", template)
    t = re.sub(r"/:[^/]+", "/{}", t)
    return re.sub(r"/\*[^/]+", "/{}", t)


def operations(schema):
    return [(m.upper(), path) for path, item in schema.get("paths", {}).items() for m in item if m in METHODS]


def coverage(schema, counts):
    ops = operations(schema)
    paths = {p for _, p in ops}
    by_shape = {}
    for p in paths:
        by_shape.setdefault(shape(p), []).append(p)
    # route (as counted) -> document path
    seen = {}
    unmapped = set()
    for (method, route, status), n in counts.items():
        if n <= 0:
            continue
        if route in paths:
            path = route
        elif len(by_shape.get(shape(route), [])) == 1:
            path = by_shape[shape(route)][0]
        else:
            if route.startswith(("/v1/", "/webhooks/", "/agents/", "/.well-known/", "/mcp")):
                unmapped.add(route)
            continue
        statuses = seen.setdefault((method, path), {})
        statuses[status] = statuses.get(status, 0) + n

    report = {"total": len(ops), "ok": 0, "reached": 0, "not_ok": [], "not_reached": [], "statuses": {},
              "unmapped_routes": sorted(unmapped)}
    for method, path in ops:
        name = f"{method} {path}"
        statuses = seen.get((method, path), {})
        report["statuses"][name] = {str(s): int(n) for s, n in sorted(statuses.items())}
        ok = any(200 <= s < 300 for s in statuses)
        reached = ok or any(400 <= s < 500 and s not in NOT_REACHED for s in statuses)
        report["ok"] += ok
        report["reached"] += reached
        if not ok:
            report["not_ok"].append(name)
        if not reached:
            report["not_reached"].append(name)
    return report


def minus(counts, baseline):
    return {k: v - baseline.get(k, 0) for k, v in counts.items()}


def load_baseline(path):
    with open(path, encoding="utf-8") as f:
        return {(m, r, int(s)): v for m, r, s, v in json.load(f)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the server, e.g. http://127.0.0.1:8080")
    ap.add_argument("--schema", required=True, help="the OpenAPI document")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--baseline", help="count only the requests after this snapshot (from --save)")
    ap.add_argument("--save", help="write the counters to this file and print nothing else")
    args = ap.parse_args()

    counts = parse(fetch_metrics(args.base))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump([[m, r, s, v] for (m, r, s), v in sorted(counts.items())], f)
        return
    if args.baseline:
        counts = minus(counts, load_baseline(args.baseline))
    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    report = coverage(schema, counts)

    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return
    print(f"fuzz_coverage: {report['ok']} ok / {report['reached']} reached / {report['total']} operations")

    def listing(title, names):
        print(f"{title} ({len(names)}):")
        for name in names:
            got = ", ".join(f"{s}x{n}" for s, n in report["statuses"][name].items()) or "no request"
            print(f"  {name}  [{got}]")

    listing("not reached (no 2xx, and no 4xx but 401/403/404/405)", report["not_reached"])
    listing("not ok (no 2xx)", report["not_ok"])
    if report["unmapped_routes"]:
        print("counted routes the document does not have: " + ", ".join(report["unmapped_routes"]))


if __name__ == "__main__":
    main()
