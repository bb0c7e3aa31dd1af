#!/usr/bin/env python3
"""Times Memoir's core flows through its API, one request at a time, in a tenant of their own.

Run by bench/scale/run.sh's `flows` step against a service whose model is the test suite's scripted model server
(bench/reply-context/ScriptedModelServer.java), which answers at once: what is timed is Memoir and its database,
not a model. Each flow runs --rounds times, each round with a user of its own, on a database that already holds the
scale benchmark's tenant, so the flows share tables (and, on Citus, workers) with a loaded tenant:

  session create     POST /sessions (preset all)
  append 4 turns     POST /sessions/{id}/turns with two user and two assistant turns
  chat turn          POST /chat in a session of the default preset (multi-view), and in one of preset all
  add memory         POST /memory, a new fact
  search             GET /memory?query= of that user (a few dozen memories)
  close to written   POST /sessions/{id}/close of the preset-all session, until GET /sessions/{id} shows every
                     close job done (summary, memos, recursive fold, topics): polled every 20 ms
  import 200 turns   POST /sessions/{id}/turns with 200 messages
  export user        GET /users/{u}/export (the user's archive, NDJSON)
  import archive     POST /users/{u}-copy/import with that archive
  erase user         DELETE /memory?userId= of the copy

    python3 bench/scale/flows.py --base-url http://127.0.0.1:18082 --bootstrap-key bench-key --out out/flows-<db>.json
"""

import argparse
import http.client
import json
import math
import os
import time
import urllib.parse
import uuid


class Api:
    """One kept-alive HTTP connection, as a client library keeps one."""

    def __init__(self, base, key=None):
        u = urllib.parse.urlsplit(base)
        self.host, self.port, self.key = u.hostname, u.port, key
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)

    def request(self, method, path, body=None, content_type="application/json", key=None):
        headers = {"Authorization": f"Bearer {key or self.key}"}
        if body is not None:
            if not isinstance(body, (bytes, str)):
                body = json.dumps(body)
            headers["Content-Type"] = content_type
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                r = self.conn.getresponse()
                data = r.read()
                return r.status, data
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
                if attempt == 2:
                    raise

    def ok(self, method, path, body=None, expect=(200, 201, 202), **kw):
        status, data = self.request(method, path, body, **kw)
        if status not in expect:
            raise SystemExit(f"{method} {path}: {status} {data[:500]!r}")
        return data


def pct(xs, q):
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def summary(xs):
    return {"n": len(xs), "p50": round(pct(xs, 0.5), 1), "p95": round(pct(xs, 0.95), 1),
            "mean": round(sum(xs) / len(xs), 1)}


SENTENCES = [
    "I'm training for a half marathon in October and run four days a week.",
    "My sister and I are going to Lisbon in May; we want a quiet neighbourhood.",
    "I adopted a greyhound called Pip last week, and mornings are for walks now.",
    "My left knee hurts after runs longer than ten kilometres.",
    "I only drink green tea, never coffee, and I bake sourdough on Sundays.",
    "I moved to day shifts at the hospital, so evenings are free for climbing.",
]


def turns(n, round_no):
    out = []
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        text = SENTENCES[(i // 2 + round_no) % len(SENTENCES)]
        out.append({"role": role, "content": text if role == "user" else "Noted: " + text.lower()})
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base-url", default="http://127.0.0.1:18082")
    p.add_argument("--bootstrap-key", default="bench-key")
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--label", default="")
    p.add_argument("--out", required=True)
    a = p.parse_args()

    admin = Api(a.base_url, a.bootstrap_key)
    tenant = json.loads(admin.ok("POST", "/admin/tenants", {"name": f"flows-{uuid.uuid4().hex[:8]}"}))
    api = Api(a.base_url, tenant["apiKey"])
    times = {}

    def timed(name, fn):
        t = time.perf_counter()
        out = fn()
        times.setdefault(name, []).append((time.perf_counter() - t) * 1000)
        return out

    # Warm-up: JIT, the embedding model, the first statements of each kind (not timed).
    warm = f"warm-{uuid.uuid4().hex[:6]}"
    s = json.loads(api.ok("POST", "/sessions", {"userId": warm, "memory": {"strategy": "all"}}))
    for _ in range(3):
        api.ok("POST", "/chat", {"sessionId": s["id"], "message": SENTENCES[0]})
        api.ok("POST", "/memory", {"userId": warm, "text": f"Warm fact {uuid.uuid4().hex}."})
        api.ok("GET", "/memory?" + urllib.parse.urlencode({"userId": warm, "query": "marathon"}))

    for r in range(a.rounds):
        user = f"flow-{r}-{uuid.uuid4().hex[:6]}"
        full = json.loads(timed("session create", lambda: api.ok(
            "POST", "/sessions", {"userId": user, "memory": {"strategy": "all"}})))
        timed("append 4 turns", lambda: api.ok("POST", f"/sessions/{full['id']}/turns", {"turns": turns(4, r)}))
        plain = json.loads(api.ok("POST", "/sessions", {"userId": user}))
        timed("chat turn (multi-view)", lambda: api.ok(
            "POST", "/chat", {"sessionId": plain["id"], "message": SENTENCES[(r + 1) % len(SENTENCES)]}))
        timed("chat turn (all)", lambda: api.ok(
            "POST", "/chat", {"sessionId": full["id"], "message": SENTENCES[(r + 2) % len(SENTENCES)]}))
        timed("add memory", lambda: api.ok("POST", "/memory", {"userId": user, "text": f"{user} plays the cello."}))
        timed("search", lambda: api.ok("GET", "/memory?" + urllib.parse.urlencode(
            {"userId": user, "query": "which instrument do I play", "limit": 10})))

        def close_until_written():
            api.ok("POST", f"/sessions/{full['id']}/close")
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                jobs = json.loads(api.ok("GET", f"/sessions/{full['id']}"))["jobs"]
                if jobs and all(j["state"] == "done" for j in jobs):
                    return len(jobs)
                if any(j["state"] == "failed" for j in jobs):
                    raise SystemExit(f"a close job failed: {jobs}")
                time.sleep(0.02)
            raise SystemExit(f"close jobs not done within 120 s: {jobs}")
        jobs = timed("close to written (preset all)", close_until_written)
        times.setdefault("_close_jobs", []).append(jobs)
        imported = json.loads(api.ok("POST", "/sessions", {"userId": user}))
        timed("import 200 turns", lambda: api.ok("POST", f"/sessions/{imported['id']}/turns",
                                                 {"turns": turns(200, r)}))
        archive = timed("export user", lambda: api.ok("GET", f"/users/{user}/export"))
        timed("import archive", lambda: api.ok("POST", f"/users/{user}-copy/import", archive,
                                               content_type="application/x-ndjson"))
        timed("erase user", lambda: api.ok("DELETE", "/memory?" + urllib.parse.urlencode({"userId": user + "-copy"})))
        print(f"[{time.strftime('%H:%M:%S')}] round {r + 1}/{a.rounds}", flush=True)

    close_jobs = times.pop("_close_jobs")
    result = {"label": a.label, "rounds": a.rounds, "close_jobs_per_session": sorted(set(close_jobs)),
              "archive_lines": None, "flows_ms": {name: summary(xs) for name, xs in times.items()}}
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    for name, s in result["flows_ms"].items():
        print(f"  {name:32s} p50 {s['p50']:8.1f}  p95 {s['p95']:8.1f} ms")
    print("wrote", a.out)


if __name__ == "__main__":
    main()
