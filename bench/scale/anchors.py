#!/usr/bin/env python3
"""Embeds the topic pool with the service's own model (bge-small-en-v1.5), so that the loaded vectors live where
the service's query vectors live.

For each of datagen.N_TOPICS topics, --per-topic texts are drawn from the topic (datagen.Model.body) and imported
as turns of one session (POST /sessions, POST /sessions/{id}/turns): the service writes them as history
memories, embedded in-process. Their vectors are read back from memory_records and written, with the texts, to
out/anchors-<db>.tsv (topic, index, text, vector). load.py then draws every memory's vector around these
anchors, and measure.py draws query texts from them. Needs the service running on a migrated database.

    python3 bench/scale/anchors.py --tenant-file out/tenant-memoir_scale.json [--base-url ...] [--db-url ...]
"""

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request

import datagen

ANCHOR_USER = "anchor-embedder"


def post(base, key, path, body):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base-url", default="http://127.0.0.1:18082")
    p.add_argument("--db-url", default="postgresql://memoir:memoir@127.0.0.1:5432/memoir_scale")
    p.add_argument("--tenant-file", required=True)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--per-topic", type=int, default=datagen.ANCHORS_PER_TOPIC)
    p.add_argument("--out", help="default: out/anchors-<db>.tsv")
    a = p.parse_args()
    db = a.db_url.rsplit("/", 1)[-1].split("?")[0]
    out = a.out or os.path.join(datagen.HERE, "out", f"anchors-{db}.tsv")
    with open(a.tenant_file) as f:
        tenant = json.load(f)
    base = a.base_url.rstrip("/")
    model = datagen.Model(a.seed)
    bodies = {}
    t0 = time.monotonic()
    for topic in range(datagen.N_TOPICS):
        r = datagen.rng(a.seed, "anchor", topic)
        texts = [model.body(r, topic) for _ in range(a.per_topic)]
        for k, text in enumerate(texts):
            bodies[text] = (topic, k)
        session = post(base, tenant["apiKey"], "/sessions", {"userId": ANCHOR_USER})
        post(base, tenant["apiKey"], f"/sessions/{session['id']}/turns",
             {"turns": [{"role": "user" if k % 2 == 0 else "assistant", "content": t} for k, t in enumerate(texts)]})
        if topic % 50 == 49:
            print(f"[{time.strftime('%H:%M:%S')}] {topic + 1} topics embedded", flush=True)
    res = subprocess.run(["psql", a.db_url, "-X", "-q", "-At", "-F", "\t", "-c",
                          f"select text, embedding from memory_records where tenant_id = '{tenant['id']}' "
                          f"and user_id = '{ANCHOR_USER}' and embedding_model = '{datagen.EMBEDDING_MODEL}'"],
                         capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(res.stderr)
    rows = []
    for line in res.stdout.splitlines():
        text, vector = line.split("\t")
        # The turns' own memories are "speaker: text"; others the service derived from them (a standing
        # instruction it recognised in an "always ..." sentence) are not anchors.
        body = text.split(": ", 1)[1] if ": " in text else None
        if body in bodies:
            topic, k = bodies[body]
            rows.append((topic, k, body, vector))
    if len(rows) != len(bodies):
        sys.exit(f"read back {len(rows)} anchors, expected {len(bodies)}")
    rows.sort()
    with open(out, "w") as f:
        for topic, k, body, vector in rows:
            f.write(f"{topic}\t{k}\t{body}\t{vector}\n")
    print(f"{len(rows)} anchors embedded in {time.monotonic() - t0:.0f} s, written to {out}")


if __name__ == "__main__":
    main()
