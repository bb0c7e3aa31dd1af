#!/usr/bin/env python3
"""Update questions with and without supersession: does the current fact come first?

    python3 supersession.py --base-url URL --data data.json --state state.json --facts facts.json \
        --supersede none|oracle --label LABEL --out result.json
    python3 supersession.py --table result1.json result2.json ...

Runs on a data set that run.py has imported (every turn a history memory). Memoir writes a fact-bearing memory
(a conditional note) for the turns worth remembering, and those are what supersession acts on; here each turn that
is the evidence of some question is added once as a fact memory of its user ("Caroline: I quit ..."), dated by its
turn, with supersedes [] so that no model is asked (the first run adds them and keeps their ids in --facts).

--supersede oracle then marks, for each change the update questions name (the previous job and the current one,
the previous home and the current one), the older fact superseded by the newer, as a supersession step that judged
right would; --supersede none makes every fact live again. Only those changes: a third job's first predecessor,
which no question names, stays live. The facts are PATCHed, not added again, so every variant ranks the same rows.

Each update question is searched in the user's history and fact memories (GET /memory, hybrid, limit 50). A hit at
k: the evidence turn, as its history memory or its fact, is among the first k. For current-* questions also "stale
first": the changed fact's older state (its turn or its fact) ranks above every memory of the current one.
Python 3 standard library only.
"""

import argparse
import json
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import Api  # noqa: E402

KS = (1, 5, 10)


def changes(data):
    """(dialogueId, older turn, newer turn) for each change an update question names."""
    by_dialogue = {}
    for q in data["questions"]:
        if q["type"] == "update":
            by_dialogue.setdefault(q["dialogueId"], []).append(q)
    found = []
    for did, qs in by_dialogue.items():
        currents = [q for q in qs if q["subtype"].startswith("current-")]
        for q in qs:
            if not q["subtype"].startswith("previous-"):
                continue
            what = q["subtype"][len("previous-"):]
            current = [c for c in currents if c["subtype"] == "current-" + what
                       and (set(c["evidence"]) <= set(q["evidence"]) or c["answer"] in q["question"])]
            if len(current) != 1:
                raise SystemExit("no single current-%s question for %s" % (what, q["id"]))
            newer = current[0]["evidence"][0]
            older = [t for t in q["evidence"] if t != newer]
            if len(older) != 1:
                raise SystemExit("no single older state in %s" % q["id"])
            found.append((did, older[0], newer))
    return found


def add_facts(api, data, state):
    key = state["tenantKey"]
    facts = {}
    evidence = {}
    for q in data["questions"]:
        evidence.setdefault(q["dialogueId"], set()).update(q["evidence"])
    for d in data["dialogues"]:
        turns = {t["index"]: t for s in d["sessions"] for t in s["turns"]}
        for index in sorted(evidence.get(d["id"], ())):
            t = turns[index]
            speaker = t.get("speaker") or d["speakers"][t["role"]]
            added = api.expect(201, "POST", "/memory", key, {
                "userId": state["users"][d["id"]], "text": "%s: %s" % (speaker, t["content"]),
                "occurredAt": t["occurredAt"], "supersedes": []})
            facts["%s/%d" % (d["id"], index)] = added["id"]
    return facts


def supersede(api, state, facts, found, how):
    key = state["tenantKey"]
    for did, older, newer in found:
        body = {"supersedes": [facts["%s/%d" % (did, older)]] if how == "oracle" else []}
        api.expect(200, "PATCH", "/memory/" + facts["%s/%d" % (did, newer)], key, body)


def search(api, data, state, facts, found, limit):
    key = state["tenantKey"]
    turn_of = {}
    for did, ids in state["turnIds"].items():
        for i, u in enumerate(ids):
            turn_of[u] = (did, i)
    for name, fid in facts.items():
        did, index = name.rsplit("/", 1)
        turn_of[fid] = (did, int(index))
    older_of = {(did, newer): older for did, older, newer in found}
    rows = []
    for q in data["questions"]:
        if q["type"] != "update":
            continue
        path = "/memory?" + urllib.parse.urlencode([
            ("userId", state["users"][q["dialogueId"]]), ("query", q["question"]), ("kind", "history"),
            ("kind", "fact"), ("limit", limit), ("mode", "hybrid")])
        items = api.expect(200, "GET", path, key)["items"]
        ranked = []
        for item in items:
            turns = [turn_of.get(u) for u in (item.get("provenance") or {}).get("turnIds", [])]
            turns.append(turn_of.get(item["id"]))
            ranked.append({t[1] for t in turns if t and t[0] == q["dialogueId"]})
        evidence = set(q["evidence"])
        rank = next((r for r, turns in enumerate(ranked, start=1) if turns & evidence), None)
        row = {"id": q["id"], "subtype": q["subtype"], "rank": rank}
        if q["subtype"].startswith("current-"):
            older = older_of.get((q["dialogueId"], q["evidence"][0]))
            if older is not None:
                stale = next((r for r, turns in enumerate(ranked, start=1) if older in turns), None)
                row["staleFirst"] = stale is not None and (rank is None or stale < rank)
        rows.append(row)
    return rows


def summarize(rows):
    out = {}
    for group, pick in (("current", "current-"), ("previous", "previous-"), ("all", "")):
        rs = [r for r in rows if r["subtype"].startswith(pick)]
        res = {"questions": len(rs)}
        for k in KS:
            res["@%d" % k] = round(sum(1 for r in rs if r["rank"] and r["rank"] <= k) / len(rs), 6) if rs else None
        stale = [r for r in rs if "staleFirst" in r]
        if stale:
            res["staleFirst"] = round(sum(1 for r in stale if r["staleFirst"]) / len(stale), 6)
            res["changed"] = len(stale)
        out[group] = res
    return out


def table(paths):
    lines = ["| variant | current @1 | @5 | @10 | stale first | previous @1 | @5 | @10 |", "|---|---|---|---|---|---|---|---|"]
    for p in paths:
        with open(p) as f:
            r = json.load(f)
        c, pr = r["summary"]["current"], r["summary"]["previous"]
        pct = lambda x: "%.1f" % (100 * x) if x is not None else "-"  # noqa: E731
        lines.append("| %s | %s | %s | %s | %s of %d | %s | %s | %s |" % (
            r["label"], pct(c["@1"]), pct(c["@5"]), pct(c["@10"]), pct(c.get("staleFirst")), c.get("changed", 0),
            pct(pr["@1"]), pct(pr["@5"]), pct(pr["@10"])))
    lines.append("")
    first = json.load(open(paths[0]))
    lines.append("%d current-* and %d previous-* questions; \"stale first\": of the current-* questions whose fact "
                 "changed, the share where the older state ranks above the current one." % (
                     first["summary"]["current"]["questions"], first["summary"]["previous"]["questions"]))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", default="http://127.0.0.1:18081")
    ap.add_argument("--data", default="/tmp/memoir-retrieval-bench/data.json")
    ap.add_argument("--state", default="/tmp/memoir-retrieval-bench/state.json")
    ap.add_argument("--facts", default="/tmp/memoir-retrieval-bench/facts.json")
    ap.add_argument("--supersede", choices=("none", "oracle"), default="none")
    ap.add_argument("--limit", type=int, default=50)
    ap.add_argument("--label", default="variant")
    ap.add_argument("--settings", default="")
    ap.add_argument("--out")
    ap.add_argument("--table", nargs="+")
    args = ap.parse_args()
    if args.table:
        print(table(args.table))
        return
    with open(args.data) as f:
        data = json.load(f)
    with open(args.state) as f:
        state = json.load(f)
    api = Api(args.base_url)
    if os.path.exists(args.facts):
        with open(args.facts) as f:
            facts = json.load(f)
    else:
        facts = add_facts(api, data, state)
        with open(args.facts, "w") as f:
            json.dump(facts, f)
    found = changes(data)
    supersede(api, state, facts, found, args.supersede)
    rows = search(api, data, state, facts, found, args.limit)
    result = {"label": args.label, "settings": args.settings, "supersede": args.supersede, "facts": len(facts),
              "changes": len(found), "summary": summarize(rows), "rows": rows}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    print(json.dumps({"label": args.label, **result["summary"]}, indent=1))


if __name__ == "__main__":
    main()
