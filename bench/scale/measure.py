#!/usr/bin/env python3
"""Measures memory search on a database filled by load.py, per user size class (~40, 1k, 10k, 100k memories).

 (a) raw SQL: the statement HybridSearchRepository runs, composed from the service's own SQL files
     (search_sql.py), with literal values, in one psql session, inside a transaction that first runs the service's
     settings statement (hnsw.iterative_scan = relaxed_order for the session, as the service's
     connection-init-sql; ITERATIVE_SCAN overrides it). Time = psql's \\timing of the search
     statement alone (client-side: planning + execution + sending the 10 rows over the local socket).
     Query vectors: drawn from the data's own distribution (around an anchor of one of the user's topics);
     query text: 2..4 content words of that anchor's text (synthetic mode: Zipf-weighted content words).
 (b) API: GET /memory?userId=..&query=..&limit=10 with the same query texts, one client (urllib); the service
     embeds the text with bge, so its query vectors are bge vectors, not the synthetic ones. API floor: the
     same requests for a user with no memories (HTTP + embedding + transaction, almost no SQL work).
 (c) API with --concurrency clients (threads) on the 100k user and on the 1k users.
 (d) recall@10 of the dense ranking (the service's dense CTE; HNSW, ef_search and iterative scan as the service
     sets them) against exact search (the same CTE with index scans off, so that no index can serve it), with the
     synthetic vectors.
 (e) EXPLAIN (ANALYZE, BUFFERS) of one query per class, and plain EXPLAIN of every query to count plans;
     the dense and the lexical ranking timed alone; for 10k and 100k, recall and time at ef_search 200, 1000.
 (f) with --replay-log: the API queried again while the server logs every statement; the logged search
     statements give the server-side duration and the bge query vectors, which are replayed with psql
     (raw SQL with the API's own vectors) and checked for recall@10 against exact search.

    python3 bench/scale/measure.py --tenant-file out/tenant-memoir_scale.json [--queries 200] [--concurrency 32]
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import datagen
import search_sql

CLASSES = ["40", "1k", "10k", "100k"]
CANDIDATES = 100          # memoir.search.candidates
EF_SEARCH = min(1000, max(40, CANDIDATES * 4))   # HybridSearchRepository: candidates x ef-search-factor (4)
ITERATIVE_SCAN = os.environ.get("ITERATIVE_SCAN", "relaxed_order")
MAX_SCAN_TUPLES = os.environ.get("MAX_SCAN_TUPLES")   # pgvector's hnsw.max_scan_tuples (default 20000), to try
RARITY_SAMPLE = 2000      # memoir.search.rarity-sample
KINDS = datagen.KINDS + ["fact"]   # GET /memory without kind searches every kind; the data hold no facts

# The statement HybridSearchRepository runs with the default settings (rarity ranking, coverage-weighted fusion,
# no recency ranking), from the service's own SQL files. Runs before commit faa3799 measured plain fusion with
# lexical weight 0.3; the two cost the same (docs/benchmarks.md).
SQL = search_sql.statement()

# The dense ranking alone, the service's dense CTE: run as the service runs it (HNSW may serve it), and with index
# scans off in its transaction (EXACT_SETTINGS), where no index can serve it, as exact search.
DENSE = "with " + search_sql.dense() + "\nselect id from dense order by distance, id"
EXACT_SETTINGS = "set local enable_indexscan = off;"

LEXICAL = "with " + search_sql.lexical() + "\nselect id, score from lexical"


# Set by --citus: the target is a Citus coordinator, where the service sends its settings as SET LOCAL commands.
CITUS = False


def tx_settings(ef=None):
    """The service's settings statement, run first in each transaction, as the service sends it (SearchSettings): on
    PostgreSQL the set_config statement (settings.sql), with the iterative scan the service's connections have from
    their start; on a Citus coordinator the same settings as SET LOCAL commands, which it sends to its workers."""
    ef = ef or EF_SEARCH
    extra = f" set local hnsw.max_scan_tuples = {int(MAX_SCAN_TUPLES)};" if MAX_SCAN_TUPLES else ""
    if CITUS:
        return ("set local citus.propagate_set_commands = 'local'; set local plan_cache_mode = force_custom_plan; "
                + f"set local max_parallel_workers_per_gather = 0; set local hnsw.ef_search = {ef}; "
                + f"set local hnsw.iterative_scan = {ITERATIVE_SCAN};" + extra)
    return (search_sql.bind(search_sql.SETTINGS, {"efSearch": str(ef)}) + " \\g /dev/null\n"
            + f"set local hnsw.iterative_scan = {ITERATIVE_SCAN};" + extra)


class Query:
    def __init__(self, cls, user, text, vector):
        self.cls, self.user, self.text, self.vector = cls, user, text, vector

    def params(self, tenant):
        """The statement's named parameters as HybridSearchRepository binds them for GET /memory?query=..&limit=10
        with the default settings. The query texts are content words and name no month with its year, so the
        period ranking has no period (QueryPeriod)."""
        if isinstance(self.vector, str):     # a vector literal as the service bound it (replay)
            vec = self.vector
        else:
            vec = "[" + ",".join("%.6f" % x for x in self.vector) + "]"
        return {"tenantId": search_sql.Cast(tenant, "uuid"), "userId": self.user, "kinds": KINDS,
                "excludedTurnIds": search_sql.Cast("{}", "uuid[]"), "speaker": None, "sessionId": None,
                "from": None, "to": None, "minTrust": None, "asOf": None, "includeSuperseded": False,
                "vector": search_sql.Cast(vec, "vector"), "model": datagen.EMBEDDING_MODEL, "text": self.text,
                "normalization": 0, "denseCandidates": CANDIDATES, "lexicalCandidates": CANDIDATES,
                "denseWeight": 1.0, "lexicalWeight": 1.0, "rrfK": 20, "periodWeight": 1.0, "recencyWeight": 0.0,
                "periodFrom": None, "periodTo": None, "periodCandidates": 0, "raritySample": RARITY_SAMPLE,
                "limit": 10}

    def sql(self, tenant, template=SQL):
        return search_sql.bind(template, self.params(tenant))


def pct(xs, q):
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def summary(xs):
    return {"n": len(xs), "p50": round(pct(xs, 0.5), 2), "p95": round(pct(xs, 0.95), 2),
            "max": round(max(xs), 2) if xs else None, "mean": round(sum(xs) / len(xs), 2) if xs else None}


def run_psql(url, script):
    """Runs a psql script in one session; returns stdout."""
    res = subprocess.run(["psql", url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"], input=script,
                         capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("psql failed: " + res.stderr[-2000:])
    return res.stdout


OUT_DIR = os.path.join(datagen.HERE, "out")


def session_prelude():
    # the service's connection-init-sql (ITERATIVE_SCAN=strict_order to try the other mode)
    prelude = f"set hnsw.iterative_scan = {ITERATIVE_SCAN};\n"
    if MAX_SCAN_TUPLES:
        prelude += f"set hnsw.max_scan_tuples = {int(MAX_SCAN_TUPLES)};\n"
    return prelude


def raw_sql_times(url, tenant, queries, template=SQL, ef=None):
    """Times the search statement (or another template) of every query (psql \\timing, ms); returns (times,
    result ids)."""
    parts = [session_prelude()]
    for i, q in enumerate(queries):
        parts.append(f"begin;\n{tx_settings(ef)}\n\\timing on\n\\echo @@S {i}\n{q.sql(tenant, template)};\n"
                     f"\\echo @@E {i}\n\\timing off\ncommit;\n")
    out = run_psql(url, "".join(parts))
    times, ids, cur = {}, {}, None
    for line in out.splitlines():
        if line.startswith("@@S "):
            cur = int(line[4:])
            ids[cur] = []
        elif line.startswith("@@E "):
            cur = None
        elif cur is not None:
            m = re.match(r"Time: ([\d.]+) ms", line)
            if m:
                times[cur] = float(m.group(1))
            elif "|" in line:
                ids[cur].append(line.split("|", 1)[0])
    return [times[i] for i in range(len(queries))], [ids[i] for i in range(len(queries))]


def recall(url, tenant, queries, ef=None):
    """recall@10 of the dense ranking (as the service runs it) against exact search, per query."""
    parts = [session_prelude()]
    for i, q in enumerate(queries):
        statement = q.sql(tenant, DENSE)
        parts.append(f"begin;\n{tx_settings(ef)}\n\\echo @@D {i}\n{statement};\n"
                     f"{EXACT_SETTINGS}\n\\echo @@X {i}\n{statement};\ncommit;\n")
    out = run_psql(url, "".join(parts))
    dense, exact, cur = {}, {}, None
    for line in out.splitlines():
        if line.startswith("@@D "):
            cur = dense.setdefault(int(line[4:]), [])
        elif line.startswith("@@X "):
            cur = exact.setdefault(int(line[4:]), [])
        elif cur is not None and line.strip():
            cur.append(line.strip())
    values = []
    for i in range(len(queries)):
        truth = exact[i][:10]
        got = set(dense[i][:10])
        values.append(len([x for x in truth if x in got]) / max(1, len(truth)))
    return values


def plans(url, tenant, queries, out_dir, db):
    """Counts the dense and lexical access paths over every query (EXPLAIN (FORMAT JSON)), and writes
    EXPLAIN (ANALYZE, BUFFERS) of the class's first query to a file."""
    parts = [session_prelude()]
    for i, q in enumerate(queries):
        parts.append(f"begin;\n{tx_settings()}\n\\echo @@P {i}\nexplain (format json) {q.sql(tenant)};\ncommit;\n")
    out = run_psql(url, "".join(parts))
    per_query, cur = {}, None
    for line in out.splitlines():
        if line.startswith("@@P "):
            cur = per_query.setdefault(int(line[4:]), [])
        elif cur is not None:
            cur.append(line)
    counts = {}
    for lines in per_query.values():
        key = plan_key(json.loads("\n".join(lines))[0]["Plan"])
        counts[key] = counts.get(key, 0) + 1
    q = queries[0]
    analyzed = run_psql(url, session_prelude() + f"begin;\n{tx_settings()}\n"
                        f"explain (analyze, buffers) {q.sql(tenant)};\ncommit;\n")
    path = os.path.join(out_dir, f"explain-{db}-{q.cls}.txt")
    with open(path, "w") as f:
        f.write(f"-- user {q.user}, query text {q.text!r}\n{analyzed}")
    return counts, path, analyzed


def scans(node):
    """Scan nodes of a plan subtree as 'Node Type [index]' strings, in plan order."""
    out = []
    if "Scan" in node["Node Type"]:
        out.append(node["Node Type"] + (f" {node['Index Name']}" if "Index Name" in node else ""))
    for child in node.get("Plans", []):
        out.extend(scans(child))
    return out


def plan_key(root):
    """'dense: ...; lexical: ...' access paths of the search statement's two rankings (its inner Limits). Through a
    Citus coordinator: the task count, and the plan the worker ran for the (first) task."""
    distributed = root.get("Distributed Query")
    if distributed:
        job = distributed["Job"]
        tasks = job.get("Tasks") or []
        remote = tasks[0]["Remote Plan"][0][0]["Plan"] if tasks and tasks[0].get("Remote Plan") else None
        return f"citus tasks {job.get('Task Count')}; " + (plan_key(remote) if remote else "no remote plan")
    limits = []

    def walk(node, depth):
        if node["Node Type"] == "Limit" and depth > 0:
            limits.append(node)
            return
        for child in node.get("Plans", []):
            walk(child, depth + 1)
    walk(root, 0)
    dense, lexical = "?", "?"
    for node in limits:
        text = json.dumps(node)
        desc = " + ".join(dict.fromkeys(s for s in scans(node) if "memory_records_pkey" not in s)) or "?"
        if "Sort" in [n["Node Type"] for n in [node] + node.get("Plans", [])]:
            desc += " + sort"
        if "@@" in text:
            lexical = desc
        else:
            dense = desc
    return f"dense: {dense}; lexical: {lexical}"


LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


def logged_searches(path, offset, db):
    """The search statements the service ran, from the server log written after `offset` (needs
    log_min_duration_statement = 0 for the service's connections): [(duration ms, {"$1": value, ...})]."""
    with open(path, "rb") as f:
        f.seek(offset)
        text = f.read().decode("utf-8", "replace")
    entries, cur = [], None
    for line in text.splitlines():
        if LOG_LINE.match(line):
            cur = [line]
            entries.append(cur)
        elif cur is not None:
            cur.append(line)
    out, pending = [], None
    for e in entries:
        first = e[0]
        if f"@{db} " not in first:
            continue
        m = re.search(r"LOG:  duration: ([\d.]+) ms  (?:execute|statement)[^:]*: (.*)", first)
        if m and "with dense as" in m.group(2):
            pending = [float(m.group(1)), {}]
            out.append(pending)
            continue
        if pending is not None and "DETAIL:  parameters:" in first:
            body = "\n".join(e)[first.index("DETAIL:  parameters:") + len("DETAIL:  parameters:"):]
            pending[1] = dict(re.findall(r"(\$\d+) = (?:'((?:[^']|'')*)'|NULL)", body))
            pending = None
    return out


def replay(api, url, tenant, queries, log_path, db, log):
    """API pass with the server logging every statement, then the logged statements' server-side durations,
    the same statements replayed with psql (the API's bge vectors) and recall@10 for those vectors."""
    offset = os.path.getsize(log_path)
    sent = []
    for q in queries:
        ms, status, _ = api.search(q.user, q.text)
        sent.append((q, ms, status))
    time.sleep(1)
    logged = logged_searches(log_path, offset, db)
    if len(logged) != len(sent):
        log(f"replay: {len(sent)} requests but {len(logged)} logged search statements; skipped")
        return None
    replayed = []
    for (q, _ms, _status), (_dur, params) in zip(sent, logged):
        vector = params.get("$1")
        assert vector and vector.startswith("["), "the first parameter should be the query vector"
        assert params.get("$3") == q.user, f"logged statement of {params.get('$3')}, expected {q.user}"
        replayed.append(Query(q.cls, q.user, q.text, vector))
    # Kept for later experiments on the same bge vectors (--recall-file).
    with open(os.path.join(OUT_DIR, f"replay-queries-{db}-{replayed[0].cls}.json"),
              "w") as f:
        json.dump([{"cls": q.cls, "user": q.user, "text": q.text, "vector": q.vector} for q in replayed], f)
    times, _ = raw_sql_times(url, tenant, replayed)
    values = recall(url, tenant, replayed)
    return {"api_ms_with_logging": summary([ms for _q, ms, st in sent if st == 200]),
            "server_duration_ms": summary([d for d, _p in logged]),
            "raw_sql_bge_vectors_ms": summary(times),
            "recall_at_10_bge_vectors": round(sum(values) / len(values), 4),
            "recall_at_10_bge_vectors_min": min(values)}


class Api:
    def __init__(self, base, key, timeout=120):
        self.base, self.key, self.timeout = base.rstrip("/"), key, timeout

    def search(self, user, text, limit=10):
        url = (f"{self.base}/memory?" +
               urllib.parse.urlencode({"userId": user, "query": text, "limit": limit}))
        req = urllib.request.Request(url, headers={"Authorization": f"Bearer {self.key}"})
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                body = r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            body, status = e.read(), e.code
        except Exception as e:   # noqa: BLE001 - a failure of any kind is counted
            return (time.perf_counter() - t) * 1000, type(e).__name__, None
        ms = (time.perf_counter() - t) * 1000
        ids = None
        if status == 200:
            ids = [item["id"] for item in json.loads(body)["items"]]
        return ms, status, ids


def concurrent_run(api, queries, clients, per_client):
    results, lock = [], threading.Lock()

    def client(c):
        for j in range(per_client):
            q = queries[(c * per_client + j) % len(queries)]
            ms, status, _ = api.search(q.user, q.text)
            with lock:
                results.append((ms, status))
    t = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    wall = time.perf_counter() - t
    statuses = {}
    for _, s in results:
        statuses[str(s)] = statuses.get(str(s), 0) + 1
    ok = [ms for ms, s in results if s == 200]
    return {"clients": clients, "requests": len(results), "wall_s": round(wall, 1),
            "throughput_per_s": round(len(results) / wall, 1), "statuses": statuses,
            "failures": len(results) - len(ok), "latency_ms": summary(ok)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db-url", default="postgresql://memoir:memoir@127.0.0.1:5432/memoir_scale")
    p.add_argument("--base-url", default="http://127.0.0.1:18082")
    p.add_argument("--tenant-file", required=True, help="the POST /admin/tenants response (id, apiKey)")
    p.add_argument("--manifest", help="default: out/manifest-<db>.json")
    p.add_argument("--queries", type=int, default=200, help="queries per size class")
    p.add_argument("--users-per-class", type=int, default=10)
    p.add_argument("--concurrency", type=int, default=32)
    p.add_argument("--requests-per-client", type=int, default=20)
    p.add_argument("--seed", type=int, default=7, help="seed of the queries (the data's seed is the manifest's)")
    p.add_argument("--skip", default="",
                   help="comma-separated parts to skip: raw,api,concurrent,recall,plans,parts,sweep")
    p.add_argument("--replay-log", help="the PostgreSQL server log; with it, only the replay runs: the service's "
                   "connections must log every statement (log_min_duration_statement = 0), see run.sh")
    p.add_argument("--out-dir", default=os.path.join(datagen.HERE, "out"))
    p.add_argument("--recall-file", help="a replay-queries-*.json file: only recall@10 and dense time of those "
                   "(bge) query vectors at --ef (ITERATIVE_SCAN as set in the environment)")
    p.add_argument("--ef", type=int, default=None)
    p.add_argument("--citus", action="store_true", help="the database is a Citus coordinator")
    a = p.parse_args()
    global CITUS
    CITUS = a.citus
    global OUT_DIR
    OUT_DIR = a.out_dir
    os.makedirs(a.out_dir, exist_ok=True)
    if a.recall_file:
        with open(a.tenant_file) as f:
            tenant_id = json.load(f)["id"]
        with open(a.recall_file) as f:
            qs = [Query(q["cls"], q["user"], q["text"], q["vector"]) for q in json.load(f)]
        values = recall(a.db_url, tenant_id, qs, a.ef)
        times = raw_sql_times(a.db_url, tenant_id, qs, DENSE, a.ef)[0]
        search = raw_sql_times(a.db_url, tenant_id, qs, SQL, a.ef)[0]
        print(json.dumps({"file": os.path.basename(a.recall_file), "ef_search": a.ef or EF_SEARCH,
                          "iterative_scan": ITERATIVE_SCAN,
                          "max_scan_tuples": int(MAX_SCAN_TUPLES) if MAX_SCAN_TUPLES else 20000, "recall_at_10": round(sum(values) / len(values), 4),
                          "recall_at_10_min": min(values), "zero_recall": sum(1 for v in values if v == 0),
                          "dense_ms": summary(times), "search_ms": summary(search)}))
        return
    skip = set(filter(None, a.skip.split(",")))

    db = a.db_url.rsplit("/", 1)[-1].split("?")[0]
    with open(a.manifest or os.path.join(a.out_dir, f"manifest-{db}.json")) as f:
        manifest = json.load(f)
    with open(a.tenant_file) as f:
        tenant = json.load(f)
    tenant_id, key = tenant["id"], tenant["apiKey"]
    assert tenant_id == manifest["tenant_id"], "tenant file and manifest disagree"
    model = datagen.Model(manifest["seed"], manifest.get("anchors"))
    api = Api(a.base_url, key)

    queries = {}
    r = datagen.rng(a.seed, "queries")
    for cls in CLASSES:
        users = [u for u in manifest["users"] if u["class"] == cls]
        users = [users[i] for i in sorted(r.sample(range(len(users)), min(a.users_per_class, len(users))))]
        qs = []
        for i in range(a.queries):
            u = users[i % len(users)]
            topic = r.choices(u["topics"], weights=u["weights"])[0]
            text, vector = model.query(r, topic)
            qs.append(Query(cls, u["id"], text, vector))
        queries[cls] = qs
    results = {"db": db, "total": manifest["total"], "queries_per_class": a.queries, "ef_search": EF_SEARCH,
               "vectors": "anchored" if manifest.get("anchors") else "synthetic",
               "loadavg_start": os.getloadavg(), "classes": {}}
    for cls in CLASSES:
        sizes = sorted({u["size"] for u in manifest["users"] if u["class"] == cls})
        results["classes"][cls] = {"users": len({q.user for q in queries[cls]}),
                                   "sizes": [sizes[0], sizes[-1]]}

    def log(msg):
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)

    if a.replay_log:
        for i in range(60):
            q = queries[CLASSES[i % 4]][i % a.queries]
            api.search(q.user, q.text)
        for cls in CLASSES:
            r = replay(api, a.db_url, tenant_id, queries[cls], a.replay_log, db, log)
            results["classes"][cls]["replay"] = r
            log(f"{cls}: replay {json.dumps(r)}")
        path = os.path.join(a.out_dir, f"measure-{db}-replay.json")
        with open(path, "w") as f:
            json.dump(results, f, indent=1)
        print("wrote", path)
        return

    if "api" not in skip or "concurrent" not in skip:
        log("API warm-up (JIT, embedding model): 60 requests")
        for i in range(60):
            q = queries[CLASSES[i % 4]][i % a.queries]
            api.search(q.user, q.text)
        floor = [api.search("nobody-" + str(i), queries["1k"][i % a.queries].text)[0] for i in range(100)]
        results["api_floor_ms"] = summary(floor)
        log(f"API floor (a user with no memories: HTTP + embedding + transaction): {results['api_floor_ms']}")

    for cls in CLASSES:
        qs, res = queries[cls], results["classes"][cls]
        if "raw" not in skip:
            run_psql(a.db_url, "".join(f"{q.sql(tenant_id)};\n" for q in qs[:20]))    # warm the cache
            times, raw_ids = raw_sql_times(a.db_url, tenant_id, qs)
            res["raw_sql_ms"] = summary(times)
            res["raw_sql_empty_results"] = sum(1 for ids in raw_ids if not ids)
            log(f"{cls}: raw SQL {res['raw_sql_ms']}")
        if "api" not in skip:
            times, statuses, overlap = [], {}, []
            for q in qs:
                ms, status, ids = api.search(q.user, q.text)
                statuses[str(status)] = statuses.get(str(status), 0) + 1
                if status == 200:
                    times.append(ms)
            res["api_ms"] = summary(times)
            res["api_statuses"] = statuses
            log(f"{cls}: API {res['api_ms']} {statuses}")
        if "recall" not in skip:
            values = recall(a.db_url, tenant_id, qs)
            res["recall_at_10"] = round(sum(values) / len(values), 4)
            res["recall_at_10_min"] = min(values)
            log(f"{cls}: recall@10 {res['recall_at_10']} (min {res['recall_at_10_min']})")
        if "plans" not in skip:
            counts, path, _ = plans(a.db_url, tenant_id, qs, a.out_dir, db)
            res["plans"] = counts
            res["explain_analyze_file"] = os.path.relpath(path, datagen.HERE)
            log(f"{cls}: plans {counts}")
        if "parts" not in skip:
            res["dense_part_ms"] = summary(raw_sql_times(a.db_url, tenant_id, qs, DENSE)[0])
            res["lexical_part_ms"] = summary(raw_sql_times(a.db_url, tenant_id, qs, LEXICAL)[0])
            log(f"{cls}: dense part {res['dense_part_ms']}, lexical part {res['lexical_part_ms']}")
        if "sweep" not in skip and cls in ("10k", "100k"):
            sweep = {}
            for ef in (200, 1000):
                values = recall(a.db_url, tenant_id, qs, ef)
                sweep[ef] = {"recall_at_10": round(sum(values) / len(values), 4), "recall_at_10_min": min(values),
                             "dense_part_ms": summary(raw_sql_times(a.db_url, tenant_id, qs, DENSE, ef)[0]),
                             "search_ms": summary(raw_sql_times(a.db_url, tenant_id, qs, SQL, ef)[0])}
                log(f"{cls}: ef_search {ef}: {json.dumps(sweep[ef])}")
            res["ef_search_sweep"] = sweep
        res["loadavg_after"] = os.getloadavg()

    if "concurrent" not in skip:
        for cls in ["100k", "1k"]:
            log(f"{a.concurrency} clients x {a.requests_per_client} requests on class {cls}")
            c = concurrent_run(api, queries[cls], a.concurrency, a.requests_per_client)
            results["classes"][cls]["concurrent"] = c
            log(f"{cls}: {json.dumps(c)}")

    path = os.path.join(a.out_dir, f"measure-{db}.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
    print_table(results)
    print("wrote", path)


def print_table(results):
    print("\n| user's memories | API p50 ms | API p95 ms | raw SQL p50 ms | raw SQL p95 ms | recall@10 vs exact |")
    print("|---|---|---|---|---|---|")
    for cls in CLASSES:
        c = results["classes"][cls]
        lo, hi = c["sizes"]
        size = f"{lo}" if lo == hi else f"{lo}-{hi}"
        api, raw = c.get("api_ms", {}), c.get("raw_sql_ms", {})
        print(f"| {size} ({c['users']} users) | {api.get('p50', '-')} | {api.get('p95', '-')} | "
              f"{raw.get('p50', '-')} | {raw.get('p95', '-')} | {c.get('recall_at_10', '-')} |")


if __name__ == "__main__":
    main()
