#!/usr/bin/env python3
"""Does re-embedding block the request path? Polls GET /admin/embeddings until no memory is stale (or, with a
duration, for that many seconds) and meanwhile, one request at a time, searches the given users and imports two
turns into a session of its own. See docs/scale-benchmark.md, "Re-embedding 100,000 memories".

  reembed_probe.py BASE_URL BOOTSTRAP_KEY TENANT_KEY USER[,USER...] [SECONDS]
"""
import json, time, urllib.request, sys, random
base, boot, key = sys.argv[1], sys.argv[2], sys.argv[3]
users = sys.argv[4].split(",")
def req(method, path, auth, body=None):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(base + path, data=data, method=method, headers={"Authorization": "Bearer " + auth, "Content-Type": "application/json"})
    t = time.perf_counter()
    with urllib.request.urlopen(r, timeout=120) as resp:
        out = resp.read()
    return (time.perf_counter() - t) * 1000, json.loads(out) if out else None
words = ["marathon", "garden", "recipe", "guitar", "holiday", "doctor", "budget", "coffee", "train", "weather"]
samples = {"search": [], "import": []}
t0 = time.time(); last = None; progress = []
session = req("POST", "/sessions", key, {"userId": "probe-user"})[1]["id"]
while True:
    _, p = req("GET", "/admin/embeddings", boot)
    progress.append((round(time.time() - t0, 1), p["staleMemories"]))
    if len(sys.argv) > 5:
        if time.time() - t0 > float(sys.argv[5]):
            break
    elif p["staleMemories"] == 0 and time.time() - t0 > 5:
        break
    for u in users:
        ms, _ = req("GET", f"/memory?userId={u}&query={random.choice(words)}+{random.choice(words)}&limit=10", key)
        samples["search"].append(ms)
    ms, _ = req("POST", f"/sessions/{session}/turns", key, {"turns": [{"role": "user", "content": "I went to the " + random.choice(words)}, {"role": "assistant", "content": "Nice."}]})
    samples["import"].append(ms)
    time.sleep(0.5)
def pct(xs, q):
    s = sorted(xs); return round(s[max(0, int(q * len(s) + 0.999) - 1)], 1) if s else None
print(json.dumps({"seconds": round(time.time() - t0, 1), "model": p["model"], "total": p["totalMemories"],
                  "progress": progress[:: max(1, len(progress) // 12)] + [progress[-1]],
                  "search_ms": {"n": len(samples["search"]), "p50": pct(samples["search"], .5), "p95": pct(samples["search"], .95), "max": round(max(samples["search"]), 1)},
                  "import_ms": {"n": len(samples["import"]), "p50": pct(samples["import"], .5), "p95": pct(samples["import"], .95), "max": round(max(samples["import"]), 1)}}))
