#!/usr/bin/env bash
# The query-embedding floor of a search: bge-small-en-v1.5 (in process, ONNX Runtime) embedding 300 of the retrieval
# benchmark's questions one at a time (p50/p95 ms) and 511 of its dialogue turns in batches (turns/s), with
# langchain4j's defaults (what the service used before its own encoder, OnnxSentenceEncoder, which runs each text on
# one thread without spinning, texts side by side: "1,false,2" below on 2 cores; bench/retrieval/run.sh import
# measures it in the service) and with ONNX Runtime's thread settings changed.
# Needs a JDK 21+ (JAVA_HOME or /usr/lib/jvm/temurin-25-jdk-amd64) and python3. Output: one line per setting.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
OUT="${BENCH_OUT:-/tmp/memoir-embedding-bench}"
mkdir -p "$OUT"
if [[ -z "${JAVA_HOME:-}" && -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
python3 bench/retrieval/generate.py --out "$OUT/data.json" >/dev/null
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
d = json.load(open(out + "/data.json"))
open(out + "/queries.txt", "w").write("\n".join(q["question"] for q in d["questions"][:300]))
turns = [t["content"] for s in d["dialogues"][0]["sessions"] for t in s["turns"]][:512]
open(out + "/turns.txt", "w").write("\n".join(turns))
PY
./mvnw -B -q dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" -Dmdep.includeScope=runtime >/dev/null 2>&1
# default: langchain4j's model as the service ran it before; then intra-op threads, spinning, threads embedding a batch's texts side by side
for setting in default 1,true,2 1,false,2 2,true,1 2,false,1 1,false,1; do
  "$JAVA_HOME/bin/java" -cp "$(cat "$OUT/cp.txt")" "$ROOT/bench/embedding/EmbedBench.java" \
    "$OUT/queries.txt" "$OUT/turns.txt" "$setting" 2>/dev/null | grep -E "query p50"
done
