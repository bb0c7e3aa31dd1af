#!/usr/bin/env python3
"""The search floor of one running service: GET /memory?userId=…&query=… for users with no memories (HTTP,
authentication, the query's embedding, one transaction), after warm-up requests. Prints one JSON line:
{"label", "cold": {p50, p95, mean}, "cached": {...}} in milliseconds. "cold" queries are all different (each is
embedded); "cached" repeats one query (its embedding comes from the service's cache), so that what the service
does around the search, its statements and round trips, is most of what is timed."""
import argparse
import json
import statistics
import time
import urllib.parse
import urllib.request

WORDS = ("river garden lamp violin harbor pepper orbit canyon ticket marble falcon meadow engine lantern "
         "saddle quartz velvet ember tundra copper willow anchor biscuit comet dune fossil glacier hammock "
         "island jasmine kettle lemon mosaic nectar oyster pixel quiver raven sierra tulip umbrella vortex").split()


def query_text(i):
    words = [WORDS[(i * 7 + k * 13) % len(WORDS)] for k in range(6)]
    return "what did I say about the " + " ".join(words) + f" number {i}"


def timed(base, key, user, text):
    url = f"{base}/memory?userId={urllib.parse.quote(user)}&query={urllib.parse.quote(text)}"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    start = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        response.read()
        if response.status != 200:
            raise SystemExit(f"search answered {response.status}")
    return (time.perf_counter() - start) * 1000


def summary(samples):
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        "mean": round(statistics.fmean(ordered), 2),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--label", required=True)
    parser.add_argument("--warmup", type=int, default=60)
    parser.add_argument("--requests", type=int, default=200)
    a = parser.parse_args()
    for i in range(a.warmup):
        timed(a.base_url, a.key, f"nobody-warm-{i}", query_text(100_000 + i))
    cold = [timed(a.base_url, a.key, f"nobody-{i}", query_text(i)) for i in range(a.requests)]
    cached = [timed(a.base_url, a.key, f"nobody-cached-{i}", "what did I say about my sister") for i in range(a.requests)]
    print(json.dumps({"label": a.label, "cold": summary(cold), "cached": summary(cached)}))


if __name__ == "__main__":
    main()
