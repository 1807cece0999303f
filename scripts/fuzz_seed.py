#!/usr/bin/env python3
"""Seeds a miniclaw server with real resources and writes a schemathesis 4 configuration that
fixes the path parameters of the API to their ids, so that fuzzed requests reach the handlers
instead of stopping at "not found" (scripts/fuzz_nightly.sh).

    scripts/fuzz_seed.py --base http://127.0.0.1:PORT --token OWNER_SESSION_TOKEN \
        --agent AGENT_ID [--admin ADMIN_PASSWORD] --out seed.toml [--schema openapi/openapi.json]
        [--ids seeded-ids.json]

Everything is created through the API: as the owner, and as the operator (`--admin`) for the
jobs, the cycles and the proactive sweep. Each seed is best-effort: a failure prints one line to
stderr and the rest goes on; a parameter whose resource is missing is left to schemathesis (or,
where one name means something else on that path, set to an id that names nothing, so that a
failed seed never points a DELETE at the fuzzed agent). Standard library only.

The configuration has a global `[parameters]` table for the names that mean one thing on every
path (`path.id` is the agent, `path.cid` the conversation, ...), and `[[operations]]` entries,
selected with `include-path-regex` (or `include-name` for one method of a path), where a name
means another thing: `{mid}` is a memory under `/memories/` but a message under
`/chat/replies/` and `/conversations/{cid}/messages/`, `{slug}` a service, a skill or a
marketplace skill, `{id}` a job under `/v1/admin/jobs/`. The deleting operations get spare
resources of their own (a second agent for `DELETE /v1/hosted-agents/{id}` and its restore, a
second memory, conversation, post, comment, service, skill and webhook endpoint), so that
fuzzing them does not take away what the other operations work on; `{kid}` is a second API key,
never the one the fuzzer uses. A few entries also fix body fields that name a resource (the
seller and service of an order, the skill to install, ...) and headers: `POST /v1/auth/logout`
is sent with a throwaway account's session (never the owner's), the host's agent card with the
Host its identity names, `/mcp` with the Accept it needs. Schemathesis takes the whole
`parameters` (and `headers`) table of the first `[[operations]]` entry that matches an
operation, so each operation matches one entry at most, which carries all of its settings; the
global table fills in the other names.
"""

import argparse
import datetime
import json
import os
import re
import sys
import urllib.error
import urllib.request
import uuid

TIMEOUT = 60


class Failed(Exception):
    pass


class Api:
    def __init__(self, base, token):
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method, path, body=None, token=None, expect=(200, 201, 202, 204)):
        """Returns the decoded JSON body (or None); raises Failed on an unexpected status."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("accept", "application/json")
        if data is not None:
            req.add_header("content-type", "application/json")
        auth = self.token if token is None else token
        if auth:
            req.add_header("authorization", f"Bearer {auth}")
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
                status, raw = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        except (urllib.error.URLError, OSError) as e:
            raise Failed(f"{method} {path}: {e}") from None
        text = raw.decode("utf-8", "replace")
        if status not in expect:
            raise Failed(f"{method} {path}: {status} {text[:300]}")
        try:
            return json.loads(text) if text.strip() else None
        except ValueError:
            return None


class Seeder:
    def __init__(self, api, agent, admin, dns_records=None, chain=False, telegram=False):
        self.api = api
        self.agent = agent
        self.admin = admin
        self.dns_records = dns_records
        self.chain = chain
        self.telegram_api = telegram
        self.ids = {"agent": agent}
        self.failures = 0
        self.run_tag = uuid.uuid4().hex[:8]

    def a(self, rest=""):
        return f"/v1/hosted-agents/{self.agent}{rest}"

    def seed(self, name, fn):
        try:
            fn()
        except Failed as e:
            self.failures += 1
            print(f"fuzz_seed: {name}: {e}", file=sys.stderr)
        except Exception as e:  # noqa: BLE001 - best-effort: one line, then go on
            self.failures += 1
            print(f"fuzz_seed: {name}: {type(e).__name__}: {e}", file=sys.stderr)

    def as_admin(self, method, path, body=None, expect=(200, 201, 202, 204)):
        if not self.admin:
            raise Failed("no --admin password given")
        return self.api.call(method, path, body, token=self.admin, expect=expect)

    # ---- the seeds -------------------------------------------------------------------------

    def agents(self):
        spare = self.api.call("POST", "/v1/hosted-agents", {"name": "Fuzz spare"})
        self.ids["agent_spare"] = spare["id"]
        seller = self.api.call("POST", "/v1/hosted-agents", {"name": "Fuzz seller"})
        self.ids["agent_seller"] = seller["id"]

    def api_key(self):
        # A key of its own for DELETE …/api-keys/{kid}: never the key the fuzzer uses.
        k = self.api.call("POST", self.a("/api-keys"), {"name": "fuzz-spare", "scopes": ["memories:read"]})
        self.ids["key_spare"] = k.get("id") or k.get("key_id")

    def agent_settings(self):
        self.api.call("PATCH", self.a(), {"outreach_enabled": True})

    def memories(self):
        m = self.api.call("POST", self.a("/memories"),
                          {"content": "The owner likes hiking in the Alps with Marta.", "category": "interest"})
        self.ids["memory"] = m["id"]
        m = self.api.call("POST", self.a("/memories"),
                          {"content": "The owner's sister is called Marta.", "category": "identity"})
        self.ids["memory_spare"] = m["id"]
        # Restoring makes a replaced or archived memory current again (a deleted one is gone).
        m = self.api.call("POST", self.a("/memories"),
                          {"content": "The owner once lived in Basel.", "category": "context"})
        self.api.call("PATCH", self.a(f"/memories/{m['id']}"), {"status": "archived", "reason": "fuzz seed"})
        self.ids["memory_archived"] = m["id"]
        # A few more, so that the lint and the dossier have something to work on.
        self.api.call("POST", self.a("/memories/bulk"), {"memories": [
            {"content": "The owner wants to run a marathon in 2027.", "category": "goal"},
            {"content": "The owner prefers short answers.", "category": "preference"},
            {"content": "The owner works as a nurse in Geneva.", "category": "context"},
            {"content": "The owner works as a teacher in Geneva.", "category": "context"},
            {"content": "The owner is learning Italian.", "category": "goal"},
        ]})

    def knowledge(self):
        self.api.call("POST", self.a("/knowledge"), {
            "title": "Alpine huts",
            "text": "Alpine huts are mountain refuges. Most open from June to September. "
                    "Booking ahead is recommended in July and August."})

    def memory_import(self):
        now = datetime.datetime.now(datetime.timezone.utc)
        msgs = [
            {"role": "user", "content": "I moved to Lausanne last spring.",
             "created_at": (now - datetime.timedelta(days=3)).isoformat()},
            {"role": "assistant", "content": "Noted: you live in Lausanne.",
             "created_at": (now - datetime.timedelta(days=3, seconds=-5)).isoformat()},
        ]
        r = self.api.call("POST", self.a("/memories/import"), {"messages": msgs})
        self.ids["memory_import"] = r.get("import_id") or r.get("id")

    def chat(self):
        r = self.api.call("POST", self.a("/chat"), {"message": "Hello! I like hiking in the Alps."})
        self.ids["conversation"] = r["conversation_id"]
        self.ids["user_message"] = r["user_message_id"]
        self.ids["reply"] = r["message_id"]
        self.api.call("POST", self.a("/chat"),
                      {"message": "Remind me to book a hut for July.", "conversation_id": r["conversation_id"]})
        r = self.api.call("POST", self.a("/chat"), {"message": "A conversation to delete."})
        self.ids["conversation_spare"] = r["conversation_id"]

    def feedback(self):
        c, m = self.ids["conversation"], self.ids["reply"]
        self.api.call("POST", self.a(f"/conversations/{c}/messages/{m}/feedback"), {"rating": "good"})

    def soul(self):
        self.api.call("PUT", self.a("/soul"), {"content": "# Soul\n\nCurious, kind and brief.", "reason": "fuzz seed"})

    def task(self):
        # Two due within a day: the proactive scan schedules a check-in for each.
        now = datetime.datetime.now(datetime.timezone.utc)
        t = self.api.call("POST", self.a("/tasks"), {"title": "Book a hut for July", "detail": "Two nights",
                                                     "due_at": (now + datetime.timedelta(hours=20)).isoformat()})
        self.ids["task"] = t["id"]
        self.api.call("POST", self.a("/tasks"), {"title": "Renew the alpine club card",
                                                 "due_at": (now + datetime.timedelta(hours=10)).isoformat()})

    def feed(self):
        p = self.api.call("POST", self.a("/posts"), {"body": "Hiking season starts soon."})
        self.ids["post"] = p["id"]
        p = self.api.call("POST", self.a("/posts"), {"body": "A post to delete."})
        self.ids["post_spare"] = p["id"]
        post = self.ids["post"]
        c = self.api.call("POST", self.a(f"/posts/{post}/comments"), {"body": "Looking forward to it."})
        self.ids["comment"] = c["id"]
        c = self.api.call("POST", self.a(f"/posts/{post}/comments"), {"body": "A comment to delete."})
        self.ids["comment_spare"] = c["id"]
        self.api.call("POST", self.a(f"/posts/{post}/like"))

    def skills(self):
        def md(name):
            return (f"---\nname: {name}\ndescription: Plans hikes around the weather\nversion: 1.0.0\n"
                    f"triggers: [hike plan, weather window]\n---\n# {name}\n\n"
                    "When asked to plan a hike, name the driest day first.\n")
        # Installed: one to review, one to uninstall; published only: one to install.
        for key in ("skill", "skill_spare", "skill_installable"):
            name = f"fuzz-{key.replace('_', '-')}-{self.run_tag}"
            d = self.api.call("POST", self.a("/skills/publish"), {"skill_md": md(name), "price": 0})
            slug = d.get("slug", name)
            self.ids.setdefault("market_skill", slug)
            if key != "skill_installable":
                self.api.call("POST", self.a("/skills"), {"slug": slug})
            self.ids[key] = slug
        self.api.call("PUT", self.a(f"/skills/{self.ids['skill']}/review"), {"rating": 5, "review": "Useful"})

    def services(self):
        for key in ("service", "service_spare"):
            slug = key.replace("_", "-")
            self.api.call("PUT", self.a(f"/services/{slug}"),
                          {"title": "Hike plan", "description": "A day hike planned for you.", "price": 1})
            self.ids[key] = slug

    def economy(self):
        self.api.call("POST", self.a("/tips"),
                      {"from": "owner", "amount": "20", "idempotency_key": f"seed-fund-{self.run_tag}"})
        t = self.api.call("POST", self.a("/tips"),
                          {"from": "owner", "amount": "1", "memo": "seed", "idempotency_key": f"seed-tip-{self.run_tag}"})
        self.ids["tip"] = t["id"]
        self.api.call("PUT", self.a("/economy/settings"), {"auto_approve_credits": 0})

    def order(self):
        seller = self.ids["agent_seller"]
        self.api.call("PUT", f"/v1/hosted-agents/{seller}/services/review",
                      {"title": "Review", "description": "One review.", "price": 1})
        self.ids["seller_service"] = "review"
        o = self.api.call("POST", self.a("/orders"), {
            "seller_agent_id": seller, "service": "review", "request": "Review my hike plan",
            "idempotency_key": f"seed-order-{self.run_tag}"})
        self.ids["order"] = o["id"]

    def stake(self):
        # One to withdraw, one for the operator to resolve.
        for key in ("stake", "stake_spare"):
            s = self.api.call("POST", self.a("/stakes"), {
                "from": "owner", "target": "agent", "topic": "hiking", "amount": 1,
                "idempotency_key": f"seed-{key}-{self.run_tag}"})
            self.ids[key] = s["id"]

    def payment(self):
        # A credits requirement (402) of the seller's service, for the agent to pay with POST
        # …/payments (an agent does not pay for its own).
        seller = self.ids["agent_seller"]
        r = self.api.call("POST", f"/v1/commerce/{seller}/services/{self.ids['seller_service']}/call",
                          {"input": "a hike"}, token="", expect=(402,))
        self.ids["payment_nonce"] = r["accepts"][0]["extra"]["nonce"]

    def wallet_tx(self):
        # A send waiting for the owner's confirmation, for …/transactions/{tid}/confirm and
        # cancel: it needs the server wallet (a master key) and a chain. The wallet itself is
        # left for the fuzzer to create when there is no chain.
        gas = self.api.call("GET", self.a("/wallet/gas"), expect=(200, 422))
        if isinstance(gas, dict) and gas.get("error", {}).get("code") == "chain_not_configured":
            raise Failed("no chain is configured (EVM_RPC_URL, EVM_CHAIN_ID): no transaction to confirm")
        self.api.call("POST", self.a("/wallet"), expect=(201, 409))
        self.api.call("PUT", self.a("/wallet/limits"), {"max_per_tx_wei": "1000000000000000000",
                                                        "max_per_day_wei": "1000000000000000000",
                                                        "confirm_above_wei": "0"})
        tx = self.api.call("POST", self.a("/wallet/send"),
                           {"to": "0x000000000000000000000000000000000000dEaD", "value_wei": "1000"})
        self.ids["wallet_tx"] = tx["id"]

    def external_wallet(self):
        w = self.api.call("POST", self.a("/wallet/external"),
                          {"address": "0x1111111111111111111111111111111111111111", "label": "seed"})
        self.ids["external_wallet"] = w["id"]

    def outreach(self):
        for key in ("outreach", "outreach_approve", "outreach_reject", "outreach_close"):
            t = self.api.call("POST", self.a("/outreach"), {
                "target_email": f"{key.replace('_', '-')}@example.com", "target_name": "Robin",
                "purpose": "Ask about the hut's opening dates", "subject": "Opening dates",
                "body": "Hello Robin, when does the hut open this year?"})
            self.ids[key] = t["id"]
        # Closing needs an approved (or sent) thread; approving needs an email transport.
        self.api.call("POST", self.a(f"/outreach/{self.ids['outreach_close']}/approve"))

    def webhooks(self):
        # A public address: by name where names resolve, else example.com's literal address
        # (nothing is delivered: the fuzzed server runs without the job worker).
        for key in ("webhook", "webhook_spare"):
            for url in ("https://example.com/hook", "https://93.184.215.14/hook"):
                try:
                    e = self.api.call("POST", "/v1/webhooks", {
                        "url": url, "events": ["*"], "agent_id": self.agent, "description": key})
                    break
                except Failed as err:
                    if "url_refused" not in str(err):
                        raise
            else:
                raise Failed("POST /v1/webhooks: every URL refused")
            self.ids[key] = e["id"]
        d = self.api.call("POST", f"/v1/webhooks/{self.ids['webhook']}/test")
        self.ids["delivery"] = d["delivery_id"]

    def spawn(self):
        d = self.api.call("POST", "/v1/agents/spawn", {"brief": "A trail-running coach who plans weekly runs."})
        self.ids["draft"] = d["id"]

    def cycles(self):
        cycles = self.as_admin("GET", "/v1/admin/cycles")
        names = {c["name"]: c["scope"] for c in cycles}
        # Harmless ones: the PoC score of one agent; a log line for the platform.
        self.ids["cycle_agent"] = "poc_score" if names.get("poc_score") == "agent" else \
            next(n for n, s in names.items() if s == "agent")
        self.ids["cycle_platform"] = "pipeline_health" if names.get("pipeline_health") == "platform" else \
            next(n for n, s in names.items() if s == "platform")
        # Cycles that leave something for the read routes: snapshots, gaps, the dossier, the
        # mirror, proactive items, the timeline, the PoC history.
        for cycle in ("poc_score", "pipeline_snapshot", "timeline", "lint", "dossier", "mirror",
                      "proactive_scan", "quality_eval"):
            if names.get(cycle) == "agent":
                try:
                    self.as_admin("POST", f"/v1/admin/agents/{self.agent}/run/{cycle}")
                except Failed as e:
                    print(f"fuzz_seed: cycle {cycle}: {e}", file=sys.stderr)

    def proactive(self):
        # The check-ins the scan scheduled, sent now (accepting or dismissing needs a sent
        # one): a daily cap that lets them go, then the operator's sweep.
        self.api.call("PATCH", self.a("/proactive"), {"daily_max": 10})
        self.as_admin("POST", "/v1/admin/run/proactive_sweep")
        rows = self.api.call("GET", self.a("/proactive/items?status=sent"))
        if len(rows) < 2:
            raise Failed(f"{len(rows)} sent proactive item(s), 2 wanted")
        self.ids["proactive_accept"] = rows[0]["id"]
        self.ids["proactive_dismiss"] = rows[1]["id"]

    def identity(self):
        # `/.well-known/agent-card.json` answers for the agent whose proven identity domain is
        # the Host: the seller's (the fuzzer changes the fuzzed agent's profile), sent as Host
        # for it. The fuzzed agent gets a domain of its own, so that `…/identity/domain/verify`
        # has one to look up. With `--dns-records`, both TXT records are put where the server
        # looks (the loopback DNS server reads the file on every question) and the seller's
        # domain is proven.
        domain = f"fuzz-{self.run_tag}.example.com"
        seller = f"/v1/hosted-agents/{self.ids['agent_seller']}"
        r = self.api.call("PATCH", f"{seller}/identity", {"domain": domain})
        self.ids["identity_domain"] = domain
        own = self.api.call("PATCH", self.a("/identity"), {"domain": f"fuzz-agent-{self.run_tag}.example.com"})
        if self.dns_records:
            self.publish_proof(r)
            self.publish_proof(own)
            self.api.call("POST", f"{seller}/identity/domain/verify")

    def publish_proof(self, identity):
        proof = (identity or {}).get("domain_proof")
        if not proof:
            raise Failed(f"no domain_proof in {identity}")
        try:
            with open(self.dns_records, encoding="utf-8") as f:
                records = json.load(f)
        except (OSError, ValueError):
            records = {}
        records[proof["txt_name"].lower()] = [proof["txt_value"]]
        tmp = self.dns_records + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(records, f)
        os.replace(tmp, self.dns_records)

    def registrations(self):
        # With a chain: registrations asked for the fuzzed agent (its registration file is
        # served from then on) and the seller (its card and file by Host). The server runs
        # without its job worker, so nothing is sent to the chain.
        for agent in (self.agent, self.ids["agent_seller"]):
            self.api.call("POST", f"/v1/hosted-agents/{agent}/identity/register")

    def token(self):
        # With a chain: the fuzzed agent's token, `deploying` (no worker sends it).
        self.api.call("POST", self.a("/token"), {"name": "Fuzz Token", "symbol": "FUZZ", "supply": "1000000"})

    def telegram(self):
        # With a loopback Bot API (`TELEGRAM_API_BASE`): a bot connected to the fuzzed agent, so
        # that its webhook and disconnecting reach their handlers.
        self.api.call("PUT", self.a("/telegram"), {"bot_token": "123456789:" + "A" * 35})

    def tenant(self):
        self.ids["tenant"] = self.api.call("GET", "/v1/me")["tenant"]["id"]

    def throwaway_session(self):
        # `POST /v1/auth/logout` ends the session it is sent with: it gets one of its own, of a
        # throwaway account, never the owner's.
        r = self.api.call("POST", "/v1/auth/signup", {
            "email": f"fuzz-logout-{self.run_tag}@example.com", "password": uuid.uuid4().hex}, token="")
        self.ids["throwaway_session"] = r["session_token"]

    def job(self):
        # A dead job for POST /v1/admin/jobs/{id}/retry: a cycle run on demand without the
        # payload it needs; else a queued job (a retry of it is a 409, still its handler).
        for cycle in ("email_send", "outreach_answer", "telegram_answer"):
            try:
                j = self.as_admin("POST", f"/v1/admin/agents/{self.agent}/run/{cycle}")
            except Failed:
                continue
            if j.get("status") == "dead":  # it needs a payload that an on-demand run has not
                self.ids["job"] = j["id"]
                return
        run_at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=30)).isoformat()
        j = self.as_admin("POST", "/v1/admin/jobs",
                          {"kind": "poc_score", "agent_id": self.agent, "run_at": run_at,
                           "idempotency_key": f"seed-job-{self.run_tag}"})
        self.ids["job"] = j["id"]

    def notification(self):
        # A budget notification: the agent's daily budget set to its least (1,000 tokens),
        # turns until one is refused (429), which tells the owner; the budget is put back.
        before = self.api.call("GET", self.a())
        budget = before.get("daily_token_budget")
        try:
            self.api.call("PATCH", self.a(), {"daily_token_budget": 1000})
            conversation = None
            for _ in range(30):
                r = self.api.call("POST", self.a("/chat"), {"message": "Are you there?", "conversation_id": conversation},
                                  expect=(200, 429))
                if not r or "conversation_id" not in r:
                    break
                conversation = r["conversation_id"]
        finally:
            self.api.call("PATCH", self.a(), {"daily_token_budget": budget})
        self.pick("notification", self.a("/notifications"))

    def pick(self, key, path):
        """The first listed item's id, if any."""
        rows = self.api.call("GET", path)
        if isinstance(rows, dict):
            rows = rows.get("items") or rows.get("data") or []
        if not rows:
            raise Failed(f"GET {path}: nothing listed")
        self.ids[key] = rows[0]["id"]

    def listed(self):
        for key, path in (("knowledge_gap", self.a("/knowledge-gaps")),
                          ("proactive_item", self.a("/proactive/items")),
                          ("mcp_call", self.a("/mcp-calls")),
                          ("mcp_server", self.a("/mcp-servers"))):
            if key not in self.ids:
                self.seed(f"list {key}", lambda key=key, path=path: self.pick(key, path))

    def dossier(self):
        self.api.call("POST", self.a("/dossier/compile"))

    def run(self):
        today = datetime.datetime.now(datetime.timezone.utc).date()
        self.ids["day"] = today.isoformat()
        self.ids["month"] = today.strftime("%Y-%m")
        self.ids["vertical"] = "economy"
        for name in ("tenant", "agents", "api_key", "agent_settings", "memories", "knowledge", "memory_import",
                     "chat", "feedback", "soul", "task", "feed", "skills", "services", "economy", "order", "stake",
                     "payment", "wallet_tx", "external_wallet", "outreach", "webhooks", "spawn", "dossier",
                     "notification", "cycles", "proactive", "job", "identity", "throwaway_session"):
            self.seed(name, getattr(self, name))
        # What needs a component the server may run without: a chain, a Bot API.
        extras = (["registrations", "token"] if self.chain else []) + (["telegram"] if self.telegram_api else [])
        for name in extras:
            self.seed(name, getattr(self, name))
        self.listed()
        return self.ids


# ---- the configuration ----------------------------------------------------------------------

# The names that mean one thing wherever they appear: name -> seeded resource.
GLOBAL = {
    "id": "agent", "model": "agent", "agent": "agent", "cid": "conversation", "kid": "key_spare",
    "gid": "knowledge_gap", "day": "day", "month": "month", "call": "mcp_call", "server": "mcp_server",
    "import_id": "memory_import", "nid": "notification", "post": "post", "comment": "comment",
    "pid": "proactive_item", "stake": "stake", "task": "task", "tip": "tip", "eid": "external_wallet",
    "tid": "wallet_tx", "endpoint": "webhook", "delivery": "delivery", "draft": "draft", "order": "order",
    "vertical": "vertical", "oid": "outreach",
}

# Where a path parameter means something else: (method or None, path regex, name, seeded
# resource); the first match wins. A missing resource becomes an id that names nothing, never
# the global value (so that a failed seed cannot point a DELETE at the fuzzed agent).
OVERRIDES = [
    ("DELETE", r"^/v1/hosted-agents/\{id\}$", "id", "agent_spare"),
    ("POST", r"^/v1/hosted-agents/\{id\}/restore$", "id", "agent_spare"),
    (None, r"^/v1/admin/jobs/\{id\}/retry$", "id", "job"),
    (None, r"^/v1/admin/agents/\{id\}/run/\{cycle\}$", "cycle", "cycle_agent"),
    (None, r"^/v1/admin/run/\{cycle\}$", "cycle", "cycle_platform"),
    (None, r"/chat/replies/\{mid\}/", "mid", "reply"),
    (None, r"/messages/\{mid\}/feedback$", "mid", "reply"),
    (None, r"/messages/\{mid\}/regenerate$", "mid", "user_message"),
    ("DELETE", r"/conversations/\{cid\}$", "cid", "conversation_spare"),
    ("DELETE", r"/memories/\{mid\}$", "mid", "memory_spare"),
    ("POST", r"/memories/\{mid\}/restore$", "mid", "memory_archived"),
    (None, r"/memories/\{mid\}", "mid", "memory"),
    ("DELETE", r"/posts/\{post\}$", "post", "post_spare"),
    ("DELETE", r"/comments/\{comment\}$", "comment", "comment_spare"),
    ("DELETE", r"^/v1/hosted-agents/\{id\}/skills/\{slug\}$", "slug", "skill_spare"),
    (None, r"^/v1/hosted-agents/\{id\}/skills/\{slug\}", "slug", "skill"),
    (None, r"^/v1/skills/\{slug\}$", "slug", "market_skill"),
    ("DELETE", r"^/v1/hosted-agents/\{id\}/services/\{slug\}$", "slug", "service_spare"),
    (None, r"/services/\{slug\}", "slug", "service"),
    ("DELETE", r"^/v1/webhooks/\{endpoint\}$", "endpoint", "webhook_spare"),
    (None, r"/outreach/\{oid\}/approve$", "oid", "outreach_approve"),
    (None, r"/outreach/\{oid\}/reject$", "oid", "outreach_reject"),
    (None, r"/outreach/\{oid\}/close$", "oid", "outreach_close"),
    (None, r"/proactive/items/\{pid\}/accept$", "pid", "proactive_accept"),
    (None, r"/proactive/items/\{pid\}/dismiss$", "pid", "proactive_dismiss"),
]

# Body fields that name a resource, where a generated value can never be one: (method, path
# regex, field, seeded resource). The rest of the body is generated.
BODY = [
    ("POST", r"^/v1/hosted-agents/\{id\}/skills$", "slug", "skill_installable"),
    ("POST", r"^/v1/hosted-agents/\{id\}/orders$", "seller_agent_id", "agent_seller"),
    ("POST", r"^/v1/hosted-agents/\{id\}/orders$", "service", "seller_service"),
    ("POST", r"^/v1/hosted-agents/\{id\}/payments$", "nonce", "payment_nonce"),
    ("POST", r"^/v1/chat/completions$", "model", "agent"),
    ("POST", r"^/v1/admin/credits/grants$", "tenant_id", "tenant"),
    ("POST", r"^/v1/admin/stakes/resolutions$", "stake_id", "stake_spare"),
    ("POST", r"^/v1/gateway/(challenge|connect)$", "agent_id", "agent"),
    ("POST", r"^/v1/webhooks$", "agent_id", "agent"),
]

# Headers of some operations: (method or None, path regex, header, seeded resource, format,
# value when the resource is missing (None: no header)).
HEADERS = [
    # Logout ends the session it is sent with: a throwaway account's, never the owner's; without
    # one, a token that is no session at all.
    ("POST", r"^/v1/auth/logout$", "Authorization", "throwaway_session", "Bearer {}", "Bearer fuzz-no-session"),
    # The host's agent card: Host names the domain of the seller agent's identity.
    ("GET", r"^/\.well-known/agent-(card|registration)\.json$", "Host", "identity_domain", "{}", None),
    # Streamable HTTP wants both.
    (None, r"^/mcp$", "Accept", None, "application/json, text/event-stream", None),
]

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def operations(schema):
    """(METHOD, path, {path parameter name: schema}) per operation of the document."""
    out = []
    for path, item in schema.get("paths", {}).items():
        shared = item.get("parameters", [])
        for method, op in item.items():
            if method not in METHODS:
                continue
            params = {}
            for p in shared + op.get("parameters", []):
                if p.get("in") == "path":
                    params[p["name"]] = p.get("schema", {})
            for name in re.findall(r"\{([^}]+)\}", path):
                params.setdefault(name, {})
            out.append((method.upper(), path, params))
    return out


def nothing(param_schema):
    """A value that names no resource, of the parameter's type."""
    if param_schema.get("format") == "uuid":
        return str(uuid.uuid4())
    return "fuzz-missing-" + uuid.uuid4().hex[:8]


def applies(rule_method, rx, method, path):
    return (rule_method is None or rule_method == method) and re.search(rx, path) is not None


def settings_for(method, path, params, ids):
    """What this operation's `[[operations]]` entry sets beyond the global table: its
    `parameters` (path parameters and body fields) and its `headers`."""
    parameters, headers = {}, {}
    for name, pschema in params.items():
        for m, rx, pname, key in OVERRIDES:
            if pname == name and applies(m, rx, method, path):
                parameters[f"path.{name}"] = str(ids[key]) if ids.get(key) is not None else nothing(pschema)
                break
    for m, rx, field, key in BODY:
        if applies(m, rx, method, path) and ids.get(key) is not None:
            parameters[f"body.{field}"] = str(ids[key])
    for m, rx, header, key, fmt, missing in HEADERS:
        if applies(m, rx, method, path):
            if key is None:
                headers[header] = fmt
            elif ids.get(key) is not None:
                headers[header] = fmt.format(ids[key])
            elif missing is not None:
                headers[header] = missing
    out = {}
    if parameters:
        out["parameters"] = parameters
    if headers:
        out["headers"] = headers
    return out


def toml_str(s):
    return json.dumps(str(s))  # a JSON string is a valid TOML basic string


def toml_table(d):
    return "{ " + ", ".join(f"{toml_str(k)} = {toml_str(v)}" for k, v in sorted(d.items())) + " }"


def entry(selector_key, selector, settings):
    lines = ["[[operations]]", f"{selector_key} = {toml_str(selector)}"]
    for option in ("parameters", "headers"):
        if option in settings:
            lines.append(f"{option} = {toml_table(settings[option])}")
    return lines + [""]


def render(schema, ids, base):
    lines = [
        "# Written by scripts/fuzz_seed.py: the path parameters (and a few body fields and",
        f"# headers) fixed to resources seeded on {base}.",
        "# For schemathesis 4: `schemathesis --config-file THIS run ...`. The first `[[operations]]`",
        "# entry that matches an operation gives all of its `parameters` (and `headers`), so each",
        "# operation matches one entry at most; `[parameters]` fills in the other names.",
        "",
        "[parameters]",
    ]
    for name, key in sorted(GLOBAL.items()):
        if ids.get(key) is not None:
            lines.append(f"{toml_str('path.' + name)} = {toml_str(ids[key])}")
    lines.append("")

    by_path = {}
    for method, path, params in operations(schema):
        by_path.setdefault(path, []).append((method, settings_for(method, path, params, ids)))
    for path, ops in by_path.items():
        if not any(settings for _, settings in ops):
            continue
        # The settings most methods of the path share go on one entry for the path (on a tie,
        # the smaller: the odd one out is the method with settings of its own); a method with
        # other settings gets an entry of its own, first, as the first matching entry wins.
        counts = {}
        for _, settings in ops:
            k = json.dumps(settings, sort_keys=True)
            counts[k] = counts.get(k, 0) + 1
        common = json.loads(max(counts, key=lambda k: (counts[k], -len(k))))
        for method, settings in ops:
            if settings == common:
                continue
            if not settings:
                # Nothing of its own, but the path's entry would give it something: its own
                # entry, with its path parameters pinned to the global values.
                settings = {"parameters": {f"path.{n}": ids[GLOBAL[n]] for n in re.findall(r"\{([^}]+)\}", path)
                                           if n in GLOBAL and ids.get(GLOBAL[n]) is not None}}
                if not settings["parameters"]:
                    settings = {"headers": {}}  # still must not match the path's entry
            lines += entry("include-name", f"{method} {path}", settings)
        if common:
            lines += entry("include-path-regex", "^" + re.escape(path) + "$", common)
    return "\n".join(lines)


def load_schema(path, api):
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    return api.call("GET", "/openapi.json", token="")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the server, e.g. http://127.0.0.1:8080")
    ap.add_argument("--token", required=True, help="the owner's session token")
    ap.add_argument("--agent", required=True, help="the agent the fuzzer works on")
    ap.add_argument("--admin", default=os.environ.get("ADMIN_PASSWORD"), help="the operator's ADMIN_PASSWORD")
    ap.add_argument("--out", required=True, help="the schemathesis configuration (TOML) to write")
    ap.add_argument("--schema", default=os.path.join(here, "..", "openapi", "openapi.json"),
                    help="the OpenAPI document (default: openapi/openapi.json, else $BASE/openapi.json)")
    ap.add_argument("--ids", help="also write the seeded ids here, as JSON")
    ap.add_argument("--dns-records", help="the TXT records file of the DNS server the server asks (proves the domains)")
    ap.add_argument("--chain", action="store_true", help="the server has a chain: ask for registrations, deploy a token")
    ap.add_argument("--telegram", action="store_true", help="the server has a Bot API: connect a bot")
    args = ap.parse_args()

    api = Api(args.base, args.token)
    seeder = Seeder(api, args.agent, args.admin, args.dns_records, args.chain, args.telegram)
    ids = seeder.run()
    schema = load_schema(args.schema, api)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(render(schema, ids, args.base))
    if args.ids:
        with open(args.ids, "w", encoding="utf-8") as f:
            json.dump(ids, f, indent=2, sort_keys=True)
    print(f"fuzz_seed: {len(ids)} ids seeded, {seeder.failures} seed(s) failed; wrote {args.out}")


if __name__ == "__main__":
    main()
