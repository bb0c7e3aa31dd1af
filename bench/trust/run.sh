#!/usr/bin/env bash
# The poisoning screen's false positives on the project's dialogue data sets (docs/trust.md, docs/benchmarks.md):
# every message of BEAM 100K (../shared/data/beam-100k beside the repository) and of the generated set
# (bench/retrieval/generate.py, seed 20240501), run through common.prompt.InjectionSigns as compiled in
# target/classes (built with ./mvnw -B -q compile when missing).
#
#   bench/trust/run.sh            # prints the rate per set, per sign, and the flagged texts' openings
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
. scripts/lib/jdk.sh
pick_jdk
OUT="${BENCH_OUT:-/tmp/memoir-trust-bench}"
mkdir -p "$OUT"
[ -f target/classes/dev/memoir/common/prompt/InjectionSigns.class ] || ./mvnw -B -q compile -Dspotless.check.skip=true
BEAM="${BEAM_DIR:-$ROOT/../shared/data/beam-100k}"
python3 bench/retrieval/generate.py --seed 20240501 --out "$OUT/gen-data.json" >&2
args=(--generated "$OUT/gen-data.json")
[ -d "$BEAM" ] && args+=(--beam "$BEAM")
python3 bench/trust/texts.py "${args[@]}" > "$OUT/texts.b64"
"$JAVA_HOME/bin/java" -cp target/classes bench/trust/FalsePositives.java "$OUT/texts.b64" | tee "$OUT/result.txt"
