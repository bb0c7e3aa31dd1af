#!/usr/bin/env python3
"""Exports and imports one user of 100,000 memories through a running Memoir, and measures time, size and heap.

    python3 bench/archive/measure.py --base-url http://127.0.0.1:18082 --bootstrap-key bench-key \
        --db-url postgresql://memoir:memoir@127.0.0.1:5432/memoir_archive [--memories 100000] [--out result.json]

A tenant is made through the API; the user's memories go straight into memory_records with psql's \\copy, from
bench/scale's generator (history memories with bge-small-en-v1.5-sized vectors around topic centroids, named for
the service's default model, so the import reuses them). Then GET /users/{id}/export is streamed to a file and
POST /users/{id}-copy/import streams that file back, while the service's heap in use
(/actuator/metrics/jvm.memory.used, area heap) is read every 250 ms. Start the service with the heap to prove
(-Xmx). Python 3 standard library only.
"""

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scale"))
import datagen  # noqa: E402


def request(base, method, path, key, body=None, headers=None, stream_to=None, timeout=3600):
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    h = {"Authorization": "Bearer " + key}
    h.update(headers or {})
    conn.request(method, path, body=body, headers=h)
    resp = conn.getresponse()
    if stream_to is not None:
        total = 0
        while True:
            chunk = resp.read(1 << 20)
            if not chunk:
                break
            stream_to.write(chunk)
            total += len(chunk)
        conn.close()
        return resp.status, total
    data = resp.read()
    conn.close()
    return resp.status, json.loads(data) if data else None


class HeapSampler(threading.Thread):
    def __init__(self, base, key):
        super().__init__(daemon=True)
        self.base, self.key = base, key
        self.samples = []
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                status, body = request(self.base, "GET", "/actuator/metrics/jvm.memory.used?tag=area:heap",
                                       self.key, timeout=10)
                if status == 200:
                    self.samples.append(body["measurements"][0]["value"])
            except OSError:
                pass
            self.stop.wait(0.25)

    def peak_mb(self):
        return round(max(self.samples) / 2**20, 1) if self.samples else None


def phase(base, bootstrap, label, fn):
    sampler = HeapSampler(base, bootstrap)
    sampler.start()
    t0 = time.monotonic()
    out = fn()
    seconds = time.monotonic() - t0
    sampler.stop.set()
    sampler.join()
    print("%s: %.1f s, heap in use at most %s MB (%d samples)" % (label, seconds, sampler.peak_mb(),
                                                                   len(sampler.samples)), flush=True)
    return out, round(seconds, 1), sampler.peak_mb()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", default="http://127.0.0.1:18082")
    ap.add_argument("--bootstrap-key", default="bench-key")
    ap.add_argument("--db-url", default="postgresql://memoir:memoir@127.0.0.1:5432/memoir_archive")
    ap.add_argument("--memories", type=int, default=100_000)
    ap.add_argument("--workdir", default="/tmp/memoir-archive-bench")
    ap.add_argument("--out")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)

    status, tenant = request(a.base_url, "POST", "/admin/tenants", a.bootstrap_key,
                             json.dumps({"name": "archive-bench-%d" % time.time()}),
                             {"Content-Type": "application/json"})
    if status != 201:
        sys.exit("tenant: %s %s" % (status, tenant))
    key, user = tenant["apiKey"], "archive-100k"
    model = datagen.Model(42)
    users = [(user, "100k", a.memories, list(range(8)), [1.0 / (j + 1) for j in range(8)])]

    def load():
        proc = subprocess.Popen(["psql", a.db_url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                                 "\\copy memory_records (%s) from pstdin" % datagen.COPY_COLUMNS],
                                stdin=subprocess.PIPE)
        n = datagen.copy_rows(model, users, tenant["id"], 42, proc.stdin)
        proc.stdin.close()
        if proc.wait() != 0:
            sys.exit("COPY failed")
        subprocess.run(["psql", a.db_url, "-X", "-q", "-c", "analyze memory_records"], check=True)
        return n

    t0 = time.monotonic()
    loaded = load()
    print("loaded %d memories in %.1f s" % (loaded, time.monotonic() - t0), flush=True)

    path = os.path.join(a.workdir, "archive-100k.ndjson")

    def export():
        with open(path, "wb") as f:
            status, size = request(a.base_url, "GET", "/users/%s/export" % user, key, stream_to=f)
        if status != 200:
            sys.exit("export answered %s" % status)
        return size

    size, export_s, export_heap = phase(a.base_url, a.bootstrap_key, "export", export)
    with open(path, "rb") as f:
        lines = sum(1 for _ in f)

    def restore():
        with open(path, "rb") as f:
            status, body = request(a.base_url, "POST", "/users/%s-copy/import" % user, key, body=f,
                                   headers={"Content-Type": "application/x-ndjson",
                                            "Content-Length": str(os.path.getsize(path))})
        if status != 201:
            sys.exit("import answered %s: %s" % (status, body))
        return body

    imported, import_s, import_heap = phase(a.base_url, a.bootstrap_key, "import", restore)
    status, found = request(a.base_url, "GET", "/memory?" + urllib.parse.urlencode(
        {"userId": user + "-copy", "query": model.query_text(datagen.rng(1, "q"), 0), "limit": 5}), key)
    result = {"memories": loaded, "archiveBytes": size, "archiveLines": lines,
              "exportSeconds": export_s, "exportHeapPeakMB": export_heap,
              "importSeconds": import_s, "importHeapPeakMB": import_heap,
              "imported": imported, "searchOfTheCopy": status == 200 and len(found["items"]) == 5}
    print(json.dumps(result, indent=1))
    if a.out:
        with open(a.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
