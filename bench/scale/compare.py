#!/usr/bin/env python3
"""Side-by-side tables of two scale-benchmark databases (load, search by user size, concurrent clients, flows), as
docs/scale-benchmark.md shows them: reads out/load-<db>.json, out/measure-<db>.json and out/flows-<db>.json.

    python3 bench/scale/compare.py "one PostgreSQL=memoir_scale_pg" "Citus, 2 workers=memoir_scale_citus"
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read(kind, db):
    path = os.path.join(HERE, "out", f"{kind}-{db}.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def ms(s):
    return f"{s['p50']:.1f} / {s['p95']:.1f}" if s else "-"


def plans(counts):
    """The access paths with the partition (and a Citus shard's number) left out: one line per distinct plan."""
    merged = {}
    for key, n in counts.items():
        key = re.sub(r"_\d{5,}\b", "", key)    # a Citus shard's number
        key = re.sub(r"_p\d\d_", "_pNN_", key)
        merged[key] = merged.get(key, 0) + n
    return "<br>".join(f"{k} ({v})" for k, v in merged.items())


def main():
    targets = [arg.split("=", 1) for arg in sys.argv[1:]]
    if len(targets) < 2:
        sys.exit(__doc__)
    names = [label for label, _ in targets]
    loads = [read("load", db) for _, db in targets]
    measures = [read("measure", db) for _, db in targets]
    flows = [read("flows", db) for _, db in targets]

    print("| load step | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for step, label in [("copy_load_s", "COPY of the memories, s"), ("vacuum_analyze_s", "vacuum analyze, s"),
                        ("gin_index_build_s", "GIN index, s"), ("hnsw_index_build_s", "HNSW index, s")]:
        print(f"| {label} | " + " | ".join(str(load.get(step, "-")) if load else "-" for load in loads) + " |")

    print()
    classes = list(measures[0]["classes"])
    print("| user's memories | " + " | ".join(f"{n}: API p50 / p95 ms | {n}: raw SQL p50 / p95 ms | {n}: recall@10"
                                              for n in names) + " |")
    print("|---|" + "---|---|---|" * len(names))
    for cls in classes:
        cells = []
        for m in measures:
            c = m["classes"][cls]
            cells += [ms(c.get("api_ms")), ms(c.get("raw_sql_ms")), str(c.get("recall_at_10", "-"))]
        size = measures[0]["classes"][cls]["sizes"]
        label = f"{size[0]:,}" if size[0] == size[1] else f"{size[0]:,}-{size[1]:,}"
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("| API floor (no memories) | " + " | ".join(f"{ms(m.get('api_floor_ms'))} | | " for m in measures) + "|")

    print()
    print("| 32 clients x 20 searches | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for cls in ("100k", "1k"):
        cells = []
        for m in measures:
            c = m["classes"][cls].get("concurrent")
            cells.append(f"{c['throughput_per_s']}/s, p50 / p95 {ms(c['latency_ms'])} ms, {c['failures']} failed"
                         if c else "-")
        size = measures[0]["classes"][cls]["sizes"][0]
        print(f"| users of {size:,} memories | " + " | ".join(cells) + " |")

    print()
    print("| plans | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for cls in classes:
        print(f"| {cls} | " + " | ".join(plans(m["classes"][cls].get("plans", {})) for m in measures) + " |")

    if all(flows):
        print()
        print("| flow, p50 / p95 ms | " + " | ".join(names) + " |")
        print("|---|" + "---|" * len(names))
        for flow in flows[0]["flows_ms"]:
            print(f"| {flow} | " + " | ".join(ms(f["flows_ms"].get(flow)) for f in flows) + " |")


if __name__ == "__main__":
    main()
