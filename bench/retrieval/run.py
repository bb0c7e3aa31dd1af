#!/usr/bin/env python3
"""Imports the generated data set into a running Memoir through its public API and measures memory search.

    python3 run.py [--base-url http://127.0.0.1:18081] [--bootstrap-key bench-key]
                   [--data /tmp/memoir-retrieval-bench/data.json] [--state /tmp/memoir-retrieval-bench/state.json]
                   [--skip-import] [--modes dense,lexical,hybrid] [--label default] [--out result.json]
    python3 run.py --summarize result1.json result2.json ...   # a settings-grid table from earlier results

Import: one tenant (POST /admin/tenants), one userId per dialogue, one session per dated session
(memory write/read = history only, so no LLM job is queued), turns posted with their occurredAt in batches of at
most 1000, each session closed. The tenant key, user ids and turn ids are saved to --state, so that --skip-import
can search the same data again (for instance after restarting the service with other search settings).

Search: every question is asked in every mode (GET /memory?kind=history&limit=50&explain=true). A question is a
hit at k when ANY of its evidence turns is among the first k results (via provenance.turnIds). A BM25 baseline
(k1=1.2, b=0.75, lowercase word tokens, English stop words, no stemming) ranks the same turns in Python.
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import hashlib
import http.client
import json
import math
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter, defaultdict

KS = (1, 5, 10, 50)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import STOP_WORDS  # noqa: E402  (one list for the generator's word checks and the BM25 baseline)


# ---------------------------------------------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------------------------------------------

class Api:
    def __init__(self, base_url, timeout=120):
        u = urllib.parse.urlsplit(base_url)
        self.host, self.port = u.hostname, u.port or 80
        self.timeout = timeout
        self.conn = None

    def request(self, method, path, key=None, body=None):
        headers = {"Accept": "application/json"}
        if key:
            headers["Authorization"] = "Bearer " + key
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                return resp.status, (json.loads(raw) if raw else None)
            except (http.client.HTTPException, ConnectionError, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def expect(self, status, method, path, key=None, body=None):
        got, payload = self.request(method, path, key, body)
        if got != status:
            raise SystemExit("%s %s answered %s (expected %s): %s" % (method, path, got, status, payload))
        return payload


# ---------------------------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------------------------

def data_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def import_dialogue(api, key, d, speakers, write=("history",)):
    """Imports one dialogue session by session, each closed; returns its turn ids and the seconds in turn POSTs.
    The sessions write the given kinds (history by default): kinds written as the turns are recorded, without the
    model, such as the standing instructions found in them."""
    ids = []
    post_seconds = 0.0
    for s in d["sessions"]:
        session = api.expect(201, "POST", "/sessions", key,
                             {"userId": d["userId"], "memory": {"write": list(write), "read": ["history"]}})
        mem = session.get("memory", {})
        if sorted(mem.get("write") or []) != sorted(write):
            raise SystemExit("session writes %s, expected %s" % (mem.get("write"), list(write)))
        turns = s["turns"]
        for i in range(0, len(turns), 1000):
            batch = []
            for t in turns[i:i + 1000]:
                turn = {"role": t["role"], "content": t["content"], "occurredAt": t["occurredAt"]}
                if speakers and t.get("speaker"):
                    turn["speaker"] = t["speaker"]
                batch.append(turn)
            t0 = time.perf_counter()
            answered = api.expect(201, "POST", "/sessions/%s/turns" % session["id"], key, {"turns": batch})
            post_seconds += time.perf_counter() - t0
            # {"turns": [...], "skipped": [...]} since the import skips what is not dialogue; a list before.
            stored = answered["turns"] if isinstance(answered, dict) else answered
            if len(stored) != len(batch):
                raise SystemExit("stored %d turns of %d" % (len(stored), len(batch)))
            ids.extend(t["id"] for t in stored)
        api.expect(202, "POST", "/sessions/%s/close" % session["id"], key)
    if len(ids) != sum(len(s["turns"]) for s in d["sessions"]):
        raise SystemExit("turn ids do not line up for " + d["id"])
    return ids, post_seconds


def import_data(api, data, args):
    tenant = api.expect(201, "POST", "/admin/tenants", args.bootstrap_key,
                        {"name": "retrieval-bench-%d" % int(time.time())})
    key = tenant["apiKey"]
    state = {"baseUrl": args.base_url, "tenantId": tenant["id"], "tenantKey": key, "data": os.path.abspath(args.data),
             "dataSha256": data_digest(args.data), "users": {}, "turnIds": {}, "speakers": args.speakers}
    total_turns = sum(len(s["turns"]) for d in data["dialogues"] for s in d["sessions"])
    started = time.perf_counter()
    # Each client imports whole dialogues (one user each) in turn; with more than one, users are imported side by
    # side, as an importer that sends several users' logs at once would.
    with concurrent.futures.ThreadPoolExecutor(args.import_clients) as clients:
        local = threading.local()

        def one(d):
            if not hasattr(local, "api"):
                local.api = Api(args.base_url)
            return import_dialogue(local.api, key, d, args.speakers)

        done = list(clients.map(one, data["dialogues"]))
    post_seconds = 0.0
    for d, (ids, seconds) in zip(data["dialogues"], done):
        state["users"][d["id"]] = d["userId"]
        state["turnIds"][d["id"]] = ids
        post_seconds += seconds
    elapsed = time.perf_counter() - started
    # With several clients, the seconds in turn POSTs overlap: their sum over the clients stands for one client's.
    post_seconds /= args.import_clients
    state["import"] = {"turns": total_turns, "sessions": sum(len(d["sessions"]) for d in data["dialogues"]),
                       "clients": args.import_clients, "seconds": round(elapsed, 2),
                       "turnsPerSecond": round(total_turns / elapsed, 1), "turnPostSeconds": round(post_seconds, 2),
                       "turnsPerSecondInTurnPosts": round(total_turns / post_seconds, 1)}
    return state


# ---------------------------------------------------------------------------------------------------------------
# BM25 baseline
# ---------------------------------------------------------------------------------------------------------------

def tokens(text):
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP_WORDS]


class BM25:
    def __init__(self, docs, k1=1.2, b=0.75):
        self.k1, self.b = k1, b
        self.tf = [Counter(tokens(d)) for d in docs]
        self.len = [sum(tf.values()) for tf in self.tf]
        self.avg = sum(self.len) / len(self.len)
        df = Counter(w for tf in self.tf for w in tf)
        n = len(docs)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}
        self.postings = defaultdict(list)
        for i, tf in enumerate(self.tf):
            for w in tf:
                self.postings[w].append(i)

    def search(self, query, limit):
        scores = defaultdict(float)
        for w in set(tokens(query)):
            idf = self.idf.get(w)
            if idf is None:
                continue
            for i in self.postings[w]:
                f = self.tf[i][w]
                scores[i] += idf * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * self.len[i] / self.avg))
        return [i for i, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]


# ---------------------------------------------------------------------------------------------------------------
# Search and metrics
# ---------------------------------------------------------------------------------------------------------------

def percentile(values, p):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(math.ceil(p / 100.0 * len(v))) - 1))]


def run_search(api, data, state, args):
    key = state["tenantKey"]
    by_uuid = {}
    for did, ids in state["turnIds"].items():
        for i, u in enumerate(ids):
            by_uuid[u] = (did, i)
    modes = [m for m in args.modes.split(",") if m]
    questions = data["questions"]
    if args.max_questions:
        questions = questions[: args.max_questions]
    names = {d["id"]: [d["speakers"]["user"], d["speakers"]["assistant"]] for d in data["dialogues"]}

    def query_text(q):
        if not args.strip_names:
            return q["question"]
        text = q["question"]
        for n in names[q["dialogueId"]]:
            text = re.sub(r"\b%s('s)?\b" % re.escape(n), "", text)
        return re.sub(r"\s+", " ", text).strip()

    latencies = {m: [] for m in modes}
    errors = Counter()
    rows = []
    # Warm-up (not measured): JIT, connection pool, embedding model.
    for q in data["questions"][:args.warmup]:
        for m in modes:
            path = "/memory?" + urllib.parse.urlencode({"userId": state["users"][q["dialogueId"]], "query": q["question"],
                                                        "kind": "history", "limit": args.limit, "mode": m})
            api.request("GET", path, key)
    started = time.perf_counter()
    for n, q in enumerate(questions):
        user = state["users"][q["dialogueId"]]
        evidence = set(q["evidence"])
        row = {"id": q["id"], "type": q["type"], "subtype": q["subtype"], "ranks": {}}
        if "month" in q:
            row["month"] = q["month"]
        for m in modes:
            path = "/memory?" + urllib.parse.urlencode({"userId": user, "query": query_text(q), "kind": "history",
                                                        "limit": args.limit, "mode": m, "explain": "true"})
            t0 = time.perf_counter()
            status, payload = api.request("GET", path, key)
            latencies[m].append((time.perf_counter() - t0) * 1000.0)
            rank = None
            if status != 200:
                errors[m] += 1
                row.setdefault("errors", {})[m] = "%s %s" % (status, json.dumps(payload)[:200])
            else:
                for r, item in enumerate(payload.get("items", []), start=1):
                    hit = [by_uuid.get(u) for u in (item.get("provenance") or {}).get("turnIds", [])]
                    if any(h and h[0] == q["dialogueId"] and h[1] in evidence for h in hit):
                        rank = r
                        if m == "hybrid" and item.get("explanation"):
                            row["hybridExplanation"] = item["explanation"]
                        break
            row["ranks"][m] = rank
        rows.append(row)
        if (n + 1) % 200 == 0:
            print("searched %d/%d questions (%.0f s)" % (n + 1, len(questions), time.perf_counter() - started),
                  file=sys.stderr)
    if args.bm25:
        turns = {d["id"]: [t["content"] for s in d["sessions"] for t in s["turns"]] for d in data["dialogues"]}
        indexes = {did: BM25(docs) for did, docs in turns.items()}
        for q, row in zip(questions, rows):
            ranked = indexes[q["dialogueId"]].search(query_text(q), args.limit)
            evidence = set(q["evidence"])
            row["ranks"]["bm25"] = next((r for r, i in enumerate(ranked, start=1) if i in evidence), None)
        modes = modes + ["bm25"]
    return rows, modes, latencies, errors


def recall(rows, mode):
    n = len(rows)
    out = {}
    for k in KS:
        # Six places, so that the tables' one-decimal percentages are rounded once (four places rounded them twice).
        out[str(k)] = round(sum(1 for r in rows if r["ranks"].get(mode) is not None and r["ranks"][mode] <= k) / n, 6) if n else None
    out["mrr"] = round(sum(1.0 / r["ranks"][mode] for r in rows if r["ranks"].get(mode)) / n, 6) if n else None
    return out


def summarize(rows, modes, latencies, errors):
    types = sorted({r["type"] for r in rows})
    subtypes = sorted({(r["type"], r["subtype"]) for r in rows})
    res = {"questions": len(rows), "modes": {}, "byType": {}, "bySubtype": {}, "byMonth": {}}
    for m in modes:
        lat = latencies.get(m) or []
        res["modes"][m] = {"recall": recall(rows, m), "errors": errors.get(m, 0),
                           "latencyMs": {"p50": round(percentile(lat, 50), 1), "p95": round(percentile(lat, 95), 1),
                                         "mean": round(statistics.mean(lat), 1)} if lat else None}
        res["byType"][m] = {t: recall([r for r in rows if r["type"] == t], m) for t in types}
        res["bySubtype"][m] = {"%s/%s" % st: recall([r for r in rows if (r["type"], r["subtype"]) == st], m)
                               for st in subtypes}
        month_rows = defaultdict(list)
        for r in rows:
            if r.get("month"):
                month_rows[r["month"].split()[0]].append(r)
        res["byMonth"][m] = {mo: recall(rs, m) for mo, rs in sorted(month_rows.items())}
    res["typeCounts"] = dict(Counter(r["type"] for r in rows))
    # The paraphrase questions share no content word with their evidence by construction, which real dialogue
    # rarely does: every change is also judged on the other questions alone.
    realistic = [r for r in rows if r["type"] != "paraphrase"]
    res["realistic"] = {"questions": len(realistic), "modes": {m: recall(realistic, m) for m in modes}}
    return res


def pct(x):
    return "—" if x is None else "%.1f" % (100 * x)


def markdown(res, imp=None, label=None):
    out = []
    modes = list(res["modes"])
    out.append("Recall@k (%%) over %d questions%s" % (res["questions"], " — " + label if label else ""))
    out.append("")
    out.append("| mode | @1 | @5 | @10 | @50 | MRR | errors |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for m in modes:
        r = res["modes"][m]["recall"]
        out.append("| %s | %s | %s | %s | %s | %.3f | %d |" % (m, pct(r["1"]), pct(r["5"]), pct(r["10"]), pct(r["50"]),
                                                            r["mrr"], res["modes"][m]["errors"]))
    out.append("")
    out.append("Per question type, recall@1 / @5 / @10 / @50 (%)")
    out.append("")
    out.append("| type (n) | " + " | ".join(modes) + " |")
    out.append("|---|" + "---:|" * len(modes))
    for t in sorted(res["typeCounts"]):
        cells = []
        for m in modes:
            r = res["byType"][m][t]
            cells.append("%s / %s / %s / %s" % (pct(r["1"]), pct(r["5"]), pct(r["10"]), pct(r["50"])))
        out.append("| %s (%d) | %s |" % (t, res["typeCounts"][t], " | ".join(cells)))
    if res.get("realistic"):
        cells = []
        for m in modes:
            r = res["realistic"]["modes"][m]
            cells.append("%s / %s / %s / %s" % (pct(r["1"]), pct(r["5"]), pct(r["10"]), pct(r["50"])))
        out.append("| *all but paraphrase* (%d) | %s |" % (res["realistic"]["questions"], " | ".join(cells)))
    out.append("")
    out.append("Client-side search latency (ms, sequential requests, explain=true, limit 50)")
    out.append("")
    out.append("| mode | p50 | p95 | mean |")
    out.append("|---|---:|---:|---:|")
    for m in modes:
        lat = res["modes"][m]["latencyMs"]
        if lat:
            out.append("| %s | %.1f | %.1f | %.1f |" % (m, lat["p50"], lat["p95"], lat["mean"]))
    if imp:
        out.append("")
        out.append("Import: %d turns in %d sessions, %.1f s, %.1f turns/s overall (%.1f turns/s within the turn POSTs)"
                   % (imp["turns"], imp["sessions"], imp["seconds"], imp["turnsPerSecond"], imp["turnsPerSecondInTurnPosts"]))
    return "\n".join(out)


def summarize_files(paths):
    out = ["| settings | mode | @1 | @5 | @10 | @50 | MRR | all but paraphrase @1 / @5 / @10 / @50 | p50 ms |",
           "|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for p in paths:
        with open(p) as fh:
            res = json.load(fh)
        for m, v in res["summary"]["modes"].items():
            if m == "bm25" and p != paths[0]:
                continue
            r = v["recall"]
            lat = v["latencyMs"]["p50"] if v.get("latencyMs") else None
            real = res["summary"].get("realistic", {}).get("modes", {}).get(m)
            real_cell = "—" if real is None else " / ".join(pct(real[k]) for k in ("1", "5", "10", "50"))
            out.append("| %s | %s | %s | %s | %s | %s | %.3f | %s | %s |" % (
                res.get("label"), m, pct(r["1"]), pct(r["5"]), pct(r["10"]), pct(r["50"]), r["mrr"], real_cell,
                "—" if lat is None else "%.1f" % lat))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", default="http://127.0.0.1:18081")
    ap.add_argument("--bootstrap-key", default="bench-key")
    ap.add_argument("--data", default="/tmp/memoir-retrieval-bench/data.json")
    ap.add_argument("--state", default="/tmp/memoir-retrieval-bench/state.json")
    ap.add_argument("--skip-import", action="store_true", help="reuse the tenant and turn ids saved in --state")
    ap.add_argument("--db-url", help="after an import, ANALYZE memory_records through psql at this URL, as "
                    "autovacuum would soon after; the search plans depend on the partitions' statistics")
    ap.add_argument("--import-only", action="store_true", help="import, save the state and stop (no searches)")
    ap.add_argument("--import-clients", type=int, default=1, help="dialogues imported side by side")
    ap.add_argument("--speakers", action="store_true", help="send each turn's speaker (its name) with the import")
    ap.add_argument("--modes", default="dense,lexical,hybrid")
    ap.add_argument("--no-bm25", dest="bm25", action="store_false")
    ap.add_argument("--limit", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=20, help="unmeasured warm-up questions")
    ap.add_argument("--max-questions", type=int, default=0, help="only the first N questions (0 = all)")
    ap.add_argument("--strip-names", action="store_true",
                    help="diagnostic: remove the speakers' names from the questions before searching")
    ap.add_argument("--label", default="default")
    ap.add_argument("--settings", default="", help="the service's search settings, recorded in the result")
    ap.add_argument("--out", default=None, help="result JSON (default: /tmp/memoir-retrieval-bench/result-LABEL.json)")
    ap.add_argument("--summarize", nargs="+", metavar="RESULT", help="print a table over earlier result files and exit")
    args = ap.parse_args()

    if args.summarize:
        print(summarize_files(args.summarize))
        return
    with open(args.data) as fh:
        data = json.load(fh)
    api = Api(args.base_url)
    if args.skip_import:
        with open(args.state) as fh:
            state = json.load(fh)
        if state["dataSha256"] != data_digest(args.data):
            raise SystemExit("%s is not the data set imported into the saved state (%s)" % (args.data, state["data"]))
    else:
        state = import_data(api, data, args)
        os.makedirs(os.path.dirname(os.path.abspath(args.state)), exist_ok=True)
        with open(args.state, "w") as fh:
            json.dump(state, fh)
        print("saved state to %s" % args.state, file=sys.stderr)
        if args.db_url:
            subprocess.run(["psql", args.db_url, "-X", "-q", "-c", "analyze memory_records"], check=True)
        if args.import_only:
            print(json.dumps(state["import"]))
            return
    rows, modes, latencies, errors = run_search(api, data, state, args)
    res = summarize(rows, modes, latencies, errors)
    result = {"label": args.label, "settings": args.settings, "stripNames": args.strip_names, "baseUrl": args.base_url, "data": data["meta"],
              "import": state.get("import"), "imported": not args.skip_import, "limit": args.limit,
              "summary": res, "questions": rows}
    out = args.out or "/tmp/memoir-retrieval-bench/result-%s.json" % re.sub(r"[^A-Za-z0-9_.=-]+", "_", args.label)
    with open(out, "w") as fh:
        json.dump(result, fh, indent=1)
    print(markdown(res, state.get("import"), args.label))
    print("\nwrote %s" % out, file=sys.stderr)


if __name__ == "__main__":
    main()
