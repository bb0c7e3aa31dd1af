#!/usr/bin/env python3
"""The reply-context benchmark's import (BEAM's long turns) against the encoder alone on the same text.

Run after bench/reply-context/run.sh has imported a data set, with the service stopped (nothing else running):
reads from the database exactly what the import embedded (each history memory whole, or its passages), one line per
dialogue, and embeds it with bench/retrieval/EmbedLimit.java the service's way (one ONNX Runtime thread per text,
--threads texts side by side), the best of two runs. Prints the import's turns and tokens a second beside the
encoder's, and their ratio.

    python3 bench/reply-context/import_limit.py --state OUT/state-beam.json \\
        --db-url postgresql://memoir:memoir@127.0.0.1:5432/memoir_bench_reply --classpath CP --java JAVA --workdir OUT
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "retrieval"))
from import_speed import embedded_batches  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="the import's state file (state-NAME.json)")
    ap.add_argument("--db-url", required=True)
    ap.add_argument("--classpath", required=True, help="the service's runtime class path")
    ap.add_argument("--java", default="java")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--workdir", default="/tmp/memoir-reply-bench")
    args = ap.parse_args()
    with open(args.state) as fh:
        state = json.load(fh)
    imported = state.get("import") or {}
    if imported.get("turnsThisRun") != imported.get("turns"):
        raise SystemExit("the import in %s was resumed: import again (--reimport) for a whole import's speed"
                         % args.state)
    path = os.path.join(args.workdir, "embedded-%s.txt" % os.path.basename(args.state).replace(".json", ""))
    embedded_batches(args, state, path)
    runs = []
    for _ in range(2):
        out = subprocess.run([args.java, "-cp", args.classpath, os.path.join(HERE, "..", "retrieval", "EmbedLimit.java"),
                              path, str(imported["turns"]), "threads=%d" % args.threads],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads([line for line in out.splitlines() if line.startswith("{")][-1]))
    limit = min(runs, key=lambda r: r["seconds"])
    seconds = imported["secondsThisRun"]
    result = {"turns": imported["turns"], "clients": imported.get("clients"), "importSeconds": seconds,
              "importTurnsPerSecond": round(imported["turns"] / seconds, 1),
              "importTokensPerSecond": round(limit["tokens"] / seconds),
              "encoderSeconds": limit["seconds"], "encoderTurnsPerSecond": limit["turnsPerSecond"],
              "encoderTokensPerSecond": limit["tokensPerSecond"], "textsEmbedded": limit["texts"],
              "tokens": limit["tokens"], "ratio": round(seconds / limit["seconds"], 2)}
    print(json.dumps(result))
    print("| import: turns/s, tokens/s | encoder alone: turns/s, tokens/s | import time / encoder time |")
    print("|---:|---:|---:|")
    print("| %.1f, %d | %.1f, %d | %.2f |" % (result["importTurnsPerSecond"], result["importTokensPerSecond"],
                                              result["encoderTurnsPerSecond"], result["encoderTokensPerSecond"],
                                              result["ratio"]))


if __name__ == "__main__":
    main()
