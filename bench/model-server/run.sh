#!/usr/bin/env bash
# A model server's day with Memoir, on this machine's CPU: llama.cpp's llama-server on 2 threads serving a stand-in
# model of SmolLM2-135M's size (src/test/llama/standin_model.py --shape smollm2), a recording proxy in between.
#
#   bench/model-server/run.sh LABEL [extra Memoir arguments]
#
# Sessions of every preset (four chats each) and one long imported dialogue (40 turns of 1,200 characters) are
# closed; the driver waits until every memory job is done or failed for good (at most BENCH_MINUTES), then reports
# chats answered, jobs done and failed, requests by status, the largest request against the context, and the
# server's errors. Results go to $BENCH_OUT/result-LABEL.json.
#
# Environment: BENCH_JAR (target/memoir-0.1.0-SNAPSHOT.jar, built when missing; another commit's jar compares
# defaults), BENCH_SERVER_ARGS (the llama-server slots and context; default "-c 24576 -np 3", the settings
# docs/running.md gives for Memoir's defaults), BENCH_CONTEXT (the context per request those give, 8192),
# BENCH_MINUTES (30), BENCH_OUT (/tmp/memoir-model-server-bench), BENCH_SHAPE (smollm2).
# Needs a JDK 21+, Python 3 with numpy and PyYAML for the model, PostgreSQL with pgvector (scripts/local-postgres.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
. scripts/lib/jdk.sh
LABEL="${1:?usage: bench/model-server/run.sh LABEL [extra Memoir arguments]}"
shift
OUT="${BENCH_OUT:-/tmp/memoir-model-server-bench}"
JAR="${BENCH_JAR:-$ROOT/target/memoir-0.1.0-SNAPSHOT.jar}"
SERVER_ARGS="${BENCH_SERVER_ARGS:--c 24576 -np 3}"
CONTEXT="${BENCH_CONTEXT:-8192}"
SHAPE="${BENCH_SHAPE:-smollm2}"
PORT=18082
PROXY_PORT=18083
LLAMA_PORT=18084
DB=memoir_mbench
KEY=bench-key
mkdir -p "$OUT"
log() { echo "[model-server-bench] $*" >&2; }

psql_super() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- env PGOPTIONS=--client-min-messages=warning psql -v ON_ERROR_STOP=1 -qtAX "$@"
  else
    sudo -u postgres env PGOPTIONS=--client-min-messages=warning psql -v ON_ERROR_STOP=1 -qtAX "$@"
  fi
}

pick_jdk
if ! psql_super -c "select 1" >/dev/null 2>&1; then
  MEMOIR_DATABASES="$DB" ./scripts/local-postgres.sh
fi
psql_super -c "drop database if exists $DB with (force)"
psql_super -c "create database $DB owner memoir"
psql_super -d "$DB" -c "create extension if not exists vector"

if [ ! -f "$JAR" ]; then
  log "building $JAR"
  ./mvnw -B -q package -DskipTests
fi

LLAMA_HOME="$(./scripts/llama-server.sh)"
PYTHON=python3
python3 -c 'import numpy, yaml' 2>/dev/null || PYTHON=/usr/bin/python3
MODEL="$OUT/standin-$SHAPE.gguf"
if [ ! -f "$MODEL" ]; then
  "$PYTHON" src/test/llama/standin_model.py --gguf-py "$LLAMA_HOME/src/gguf-py" \
    --vocab "$LLAMA_HOME/src/models/ggml-vocab-phi-3.gguf" --out "$MODEL" --shape "$SHAPE"
fi

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

log "llama-server $SERVER_ARGS -t 2"
# shellcheck disable=SC2086
"$LLAMA_HOME/bin/llama-server" -m "$MODEL" --alias memoir-standin --host 127.0.0.1 --port "$LLAMA_PORT" -t 2 \
  $SERVER_ARGS >"$OUT/llama-$LABEL.log" 2>&1 &
PIDS+=($!)
until curl -sf "http://127.0.0.1:$LLAMA_PORT/health" >/dev/null; do sleep 1; done

log "Memoir ($JAR) $*"
"$JAVA_HOME/bin/java" -jar "$JAR" --server.port="$PORT" \
  --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" --memoir.security.bootstrap-key="$KEY" \
  --spring.ai.openai.base-url="http://127.0.0.1:$PROXY_PORT/v1" --spring.ai.openai.chat.model=memoir-standin \
  --memoir.jobs.polling-interval=1s "$@" >"$OUT/service-$LABEL.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 180); do
  curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null 2>&1 && break
  sleep 1
done

python3 bench/model-server/driver.py --base-url "http://127.0.0.1:$PORT" --bootstrap-key "$KEY" \
  --proxy-port "$PROXY_PORT" --model-server "http://127.0.0.1:$LLAMA_PORT" --context "$CONTEXT" \
  --minutes "${BENCH_MINUTES:-30}" --label "$LABEL" --out "$OUT/result-$LABEL.json"
