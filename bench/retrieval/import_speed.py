#!/usr/bin/env python3
"""How fast Memoir imports chat logs, against the physical limit of this machine, in one run.

Against a running service (bench/retrieval/run.sh import starts one per jar, each on a fresh database):
  1. imports the short-turn data set (generate.py) into its own tenant, the first import after the service started;
  2. searches that tenant, one hybrid query after another: search latency, idle;
  3. imports the short-turn set again into a second tenant, the service warm;
  4. imports it a third time while one client searches the first tenant at --searches-per-second (10): search
     latency during an import, and the import's speed beside searches;
  5. imports the long-turn data set (generate_long.py, assistant turns of ~1,200 characters);
  6. reads back from the database exactly what steps 3 and 5 embedded (each history memory's text, or its passages),
     one line per turn POST, into --workdir.
Then, with the service stopped (--limit-of, run by run.sh), bench/retrieval/EmbedLimit.java embeds those texts
alone, batch by batch as the POSTs sent them, the service's way (--threads single-threaded sessions side by side)
and with langchain4j's defaults (the way before): the machine's limit, the best of two runs each.

Prints a JSON summary and a Markdown table. Python 3 standard library; psql and a JDK for step 4.

    python3 import_speed.py --base-url URL --bootstrap-key KEY --short data.json --long long.json \
        --db-url postgresql://... --classpath CP --java JAVA --label NAME --out result.json
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import types
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import Api, import_data, percentile  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def do_import(args, data_path, data, clients=1):
    ns = types.SimpleNamespace(base_url=args.base_url, bootstrap_key=args.bootstrap_key, data=data_path,
                               import_clients=clients, speakers=False)
    state = import_data(Api(args.base_url), data, ns)
    chars = sum(len(t["content"]) for d in data["dialogues"] for s in d["sessions"] for t in s["turns"])
    state["import"]["charactersPerTurn"] = round(chars / state["import"]["turns"])
    return state


class Searcher(threading.Thread):
    """Searches one tenant's memory, one hybrid query after another, until stopped; keeps each latency (ms)."""

    def __init__(self, base_url, state, questions, per_second=None):
        super().__init__(daemon=True)
        self.interval = 1.0 / per_second if per_second else 0
        self.api = Api(base_url)
        self.state = state
        self.questions = questions
        self.latencies = []
        self.errors = 0
        self.stopped = threading.Event()

    def search(self, q):
        path = "/memory?" + urllib.parse.urlencode({"userId": self.state["users"][q["dialogueId"]],
                                                    "query": q["question"], "kind": "history", "limit": 10,
                                                    "mode": "hybrid"})
        t0 = time.perf_counter()
        status, _ = self.api.request("GET", path, self.state["tenantKey"])
        elapsed = (time.perf_counter() - t0) * 1000.0
        if status != 200:
            self.errors += 1
        return elapsed

    def run(self):
        i = 0
        next_at = time.perf_counter()
        while not self.stopped.is_set():
            self.latencies.append(self.search(self.questions[i % len(self.questions)]))
            i += 1
            next_at += self.interval
            self.stopped.wait(max(0.0, next_at - time.perf_counter()))

    def summary(self):
        lat = self.latencies
        return {"searches": len(lat), "errors": self.errors, "p50": round(percentile(lat, 50), 1),
                "p95": round(percentile(lat, 95), 1)}


def idle_latency(args, state, questions):
    searcher = Searcher(args.base_url, state, questions)
    for q in questions[:20]:
        searcher.search(q)
    searcher.latencies = [searcher.search(q) for q in questions]
    return searcher.summary()


def import_beside_searches(args, data_path, data, searched_state, questions):
    searcher = Searcher(args.base_url, searched_state, questions, args.searches_per_second)
    searcher.start()
    state = do_import(args, data_path, data)
    searcher.stopped.set()
    searcher.join()
    state["import"]["searchesBeside"] = searcher.summary()
    return state


def embedded_batches(args, state, path):
    """Writes what the import embedded, one line per turn POST (a session here), texts separated by U+001F."""
    sql = """
        select m.session_id, m.created_at, m.id,
               coalesce((select string_agg(substr(m.text, p.start_char + 1, p.end_char - p.start_char), E'\\x1f'
                                           order by p.position)
                         from memory_passages p
                         where p.memory_id = m.id and p.tenant_id = m.tenant_id and p.user_id = m.user_id), m.text)
        from memory_records m
        where m.tenant_id = '%s' and m.kind = 'history'
        order by m.session_id, m.created_at, m.id""" % state["tenantId"]
    try:
        out = subprocess.run(["psql", args.db_url, "-X", "-q", "-A", "-t", "-F", "\x1e", "-R", "\x1d", "-c", sql],
                             check=True, capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as e:
        if "memory_passages" not in e.stderr:
            raise
        # A service from before passages: every memory was embedded whole.
        sql = sql.replace(sql[sql.index("coalesce("):sql.index("m.text)") + len("m.text)")], "m.text")
        out = subprocess.run(["psql", args.db_url, "-X", "-q", "-A", "-t", "-F", "\x1e", "-R", "\x1d", "-c", sql],
                             check=True, capture_output=True, text=True).stdout
    batches = {}
    order = []
    for record in out.split("\x1d"):
        if not record.strip():
            continue
        session, _, _, texts = record.split("\x1e", 3)
        if session not in batches:
            batches[session] = []
            order.append(session)
        batches[session].append(texts.replace("\n", " "))
    with open(path, "w") as fh:
        for session in order:
            fh.write("\x1f".join(batches[session]) + "\n")
    return sum(len(b) for b in batches.values())


def embed_limit(args, path, turns, how):
    out = subprocess.run([args.java, "-cp", args.classpath, os.path.join(HERE, "EmbedLimit.java"), path, str(turns),
                          how], check=True, capture_output=True, text=True).stdout
    return json.loads([line for line in out.splitlines() if line.startswith("{")][-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", default="http://127.0.0.1:18081")
    ap.add_argument("--bootstrap-key", default="bench-key")
    ap.add_argument("--short")
    ap.add_argument("--long")
    ap.add_argument("--db-url")
    ap.add_argument("--classpath", help="the service's runtime class path, for EmbedLimit.java")
    ap.add_argument("--java", default="java")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--label", default="current")
    ap.add_argument("--workdir", default="/tmp/memoir-retrieval-bench")
    ap.add_argument("--searches-per-second", type=float, default=10.0,
                    help="the searches beside an import: one client, this many a second")
    ap.add_argument("--out", help="where the import's measurements go")
    ap.add_argument("--limit-of", metavar="RESULT", help="with the service stopped: measure the embedding limit for "
                    "an earlier result (its embedded texts in --workdir) and add it to that file")
    args = ap.parse_args()

    if args.limit_of:
        with open(args.limit_of) as fh:
            result = json.load(fh)
        for name in ("short", "long"):
            path = os.path.join(args.workdir, "embedded-%s-%s.txt" % (result["label"], name))
            print("[import] the embedding limit for the %s turns" % name, file=sys.stderr)
            # The best of two runs: the limit is what the machine can do.
            result[name + "Limit"] = {how: max((embed_limit(args, path, result[name + "EmbeddedTurns"], how)
                                                for _ in range(2)), key=lambda r: r["turnsPerSecond"])
                                      for how in ("threads=%d" % args.threads, "langchain4j")}
        with open(args.limit_of, "w") as fh:
            json.dump(result, fh, indent=1)
        print(json.dumps(result))
        return

    short = json.load(open(args.short))
    long_ = json.load(open(args.long))
    questions = short["questions"][:300]
    result = {"label": args.label, "searchesPerSecondBeside": args.searches_per_second}
    print("[import] short turns, first import after start", file=sys.stderr)
    first = do_import(args, args.short, short)
    result["shortCold"] = first["import"]
    print("[import] searches, idle", file=sys.stderr)
    result["searchesIdle"] = idle_latency(args, first, questions)
    print("[import] short turns again", file=sys.stderr)
    warm = do_import(args, args.short, short)
    result["shortWarm"] = warm["import"]
    print("[import] short turns again, searches beside", file=sys.stderr)
    result["shortBesideSearches"] = import_beside_searches(args, args.short, short, first, questions)["import"]
    print("[import] long turns", file=sys.stderr)
    longs = do_import(args, args.long, long_)
    result["long"] = longs["import"]
    for name, state in (("short", warm), ("long", longs)):
        path = os.path.join(args.workdir, "embedded-%s-%s.txt" % (args.label, name))
        result[name + "EmbeddedTurns"] = embedded_batches(args, state, path)
    with open(args.out, "w") as fh:
        json.dump(result, fh, indent=1)
    print(json.dumps(result))


def table(paths):
    """A Markdown table over import_speed results, one column per run."""
    results = [json.load(open(p)) for p in paths]
    rows = ["| | %s |" % " | ".join(r["label"] for r in results), "|---|" + "---:|" * len(results)]

    def row(name, f):
        rows.append("| %s | %s |" % (name, " | ".join(f(r) for r in results)))

    def limit(r, part):
        return next(v for k, v in r[part + "Limit"].items() if k.startswith("threads"))["turnsPerSecond"]

    def speed(imp):
        return "%.0f (%.0f)" % (imp["turnsPerSecond"], imp["turnsPerSecondInTurnPosts"])

    row("short turns: turns (characters a turn)",
        lambda r: "%d (%d)" % (r["shortWarm"]["turns"], r["shortWarm"]["charactersPerTurn"]))
    row("the model alone, the service's way (the limit): turns/s", lambda r: "%.0f" % limit(r, "short"))
    row("the model alone, langchain4j's defaults: turns/s",
        lambda r: "%.0f" % r["shortLimit"]["langchain4j"]["turnsPerSecond"])
    row("import, first after start: turns/s (within the turn POSTs)", lambda r: speed(r["shortCold"]))
    row("import, again: turns/s (within the turn POSTs)", lambda r: speed(r["shortWarm"]))
    row("limit / import within the turn POSTs", lambda r: "%.2f" % (
        limit(r, "short") / r["shortWarm"]["turnsPerSecondInTurnPosts"]))
    row("import beside searches: turns/s (within the turn POSTs)", lambda r: speed(r["shortBesideSearches"]))
    row("search p50 / p95 ms: idle", lambda r: "%.1f / %.1f" % (r["searchesIdle"]["p50"], r["searchesIdle"]["p95"]))
    row("search p50 / p95 ms: beside the import", lambda r: "%.1f / %.1f" % (
        r["shortBesideSearches"]["searchesBeside"]["p50"], r["shortBesideSearches"]["searchesBeside"]["p95"]))
    row("long turns: turns (characters a turn)",
        lambda r: "%d (%d)" % (r["long"]["turns"], r["long"]["charactersPerTurn"]))
    row("the model alone, the service's way (the limit): turns/s", lambda r: "%.0f" % limit(r, "long"))
    row("the model alone, langchain4j's defaults: turns/s",
        lambda r: "%.0f" % r["longLimit"]["langchain4j"]["turnsPerSecond"])
    row("texts embedded (memories or their passages)", lambda r: "%d" % next(
        v for k, v in r["longLimit"].items() if k.startswith("threads"))["texts"])
    row("import: turns/s (within the turn POSTs)", lambda r: speed(r["long"]))
    row("limit / import within the turn POSTs", lambda r: "%.2f" % (
        limit(r, "long") / r["long"]["turnsPerSecondInTurnPosts"]))
    return "\n".join(rows)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--table":
        print(table(sys.argv[2:]))
    else:
        main()
