#!/usr/bin/env python3
"""What the period ranking costs a big user: search latency of questions that name a month with its year.

    python3 period_probe.py --base-url http://127.0.0.1:18082 --bootstrap-key bench-key \
        --db-url postgresql://memoir:memoir@127.0.0.1:5432/memoir_bench [--memories 100000]

Against a running service (start it twice, with --memoir.search.period-weight=1.0 and =0, to compare): creates a
tenant, writes --memories history memories for one user straight into memory_records through psql (random
vectors, one memory every 26 minutes from 2020 on, so a month holds about 1,700 of them; texts that share the
questions' words, so the lexical ranking reads every memory, as at its worst), then asks 40 questions naming a month
and 40 without, each text new (no cached query embedding), and prints p50 / p95 ms and how many of the top 10 came
from the period. The rows stay: erase the user (DELETE /users/scale-probe) or drop the database afterwards.
Python 3 standard library and psql.
"""

import argparse
import http.client
import json
import subprocess
import time
import urllib.parse

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", default="http://127.0.0.1:18082")
    ap.add_argument("--bootstrap-key", default="bench-key")
    ap.add_argument("--db-url", required=True)
    ap.add_argument("--memories", type=int, default=100000)
    ap.add_argument("--state", default="/tmp/memoir-period-probe.json", help="the tenant, kept for a second run")
    args = ap.parse_args()
    u = urllib.parse.urlsplit(args.base_url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)

    def call(method, path, key, body=None):
        nonlocal conn
        for attempt in range(2):
            try:
                conn.request(method, path, body=json.dumps(body) if body else None,
                             headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
                response = conn.getresponse()
                break
            except (http.client.HTTPException, ConnectionError):
                # The service closes a connection left idle while the memories are written.
                conn.close()
                conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
                if attempt:
                    raise
        payload = json.loads(response.read() or b"null")
        if response.status >= 300:
            raise SystemExit("%s %s answered %d: %s" % (method, path, response.status, payload))
        return payload

    try:
        state = json.load(open(args.state))
    except FileNotFoundError:
        tenant = call("POST", "/admin/tenants", args.bootstrap_key, {"name": "period-probe-%d" % time.time()})
        state = {"tenantId": tenant["id"], "key": tenant["apiKey"]}
        print("writing %d memories (HNSW inserts: minutes)" % args.memories)
        subprocess.run(["psql", args.db_url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", """
            insert into memory_records (id, tenant_id, user_id, kind, text, embedding, created_at, updated_at,
                                        occurred_from, occurred_to, embedding_model)
            select gen_random_uuid(), '%s', 'scale-probe', 'history',
                   'User: note number ' || g || ' about shopping things',
                   (select array_agg(random() - 0.5)::vector(384) from generate_series(1, 384) where g > 0),
                   now(), now(), timestamptz '2020-01-01' + g * interval '26 minutes',
                   timestamptz '2020-01-01' + g * interval '26 minutes', 'bge-small-en-v1.5'
            from generate_series(1, %d) g;
            analyze memory_records;""" % (state["tenantId"], args.memories)], check=True)
        json.dump(state, open(args.state, "w"))

    def search(text):
        path = "/memory?" + urllib.parse.urlencode({"userId": "scale-probe", "query": text, "kind": "history",
                                                    "limit": 10, "explain": "true"})
        started = time.perf_counter()
        found = call("GET", path, state["key"])
        return (time.perf_counter() - started) * 1000, found

    for i in range(5):
        search("warm-up shopping things %d" % i)
    for label, question in (("naming a month", "What shopping things did I note in %s %d, item %d?"),
                            ("naming none", "What shopping things did I note, item %d?")):
        latencies, in_period = [], 0
        for i in range(40):
            text = question % (MONTHS[i % 12], 2021 + i % 3, i) if "%s" in question else question % i
            ms, found = search(text)
            latencies.append(ms)
            items = found["items"] if isinstance(found, dict) else found
            in_period += sum(1 for m in items if (m.get("explanation") or {}).get("periodRank"))
        latencies.sort()
        print("%-15s p50 %.1f  p95 %.1f ms  top 10 from the period: %.1f" % (
            label, latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.95)], in_period / 40))


if __name__ == "__main__":
    main()
