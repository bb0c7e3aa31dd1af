#!/usr/bin/env bash
# Memoir's reply-context benchmark, end to end: how often a question's evidence reaches the model's reply request,
# and how many memory tokens that request carries, for several session settings and two scripted self-reflection
# answers, beside GET /memory recall. Memoir runs against the test suite's scripted model server
# (ScriptedModelServer.java around dev.memoir.support.FakeOpenAiServer), run beside it as a process of its own
# that records every model call; driver.py imports each data set, asks every sampled question through POST /chat
# in a new session per question and configuration, and reads the reply request back from the model server.
#
#   bench/reply-context/run.sh                    # the generated set (bench/retrieval/generate.py) and BEAM 100K
#   bench/reply-context/run.sh generated          # only the generated set
#   bench/reply-context/run.sh beam               # only BEAM (read at run time from ../shared/data/beam-100k)
#   bench/reply-context/run.sh beam5x             # BEAM's 20 conversations joined five by five: 4 users, each
#                                                 # history five times as long, every question asked of its user
#   bench/reply-context/run.sh hard=/tmp/hard.json generated beam   # any data.json of generate.py's format, by name
#   BENCH_SAMPLE=30 BENCH_DIALOGUES=2 bench/reply-context/run.sh     # a quick check: 2 dialogues, 30 questions each
#   BENCH_ONLY="default,budget 2000" BENCH_REFLECTION=keywords bench/reply-context/run.sh generated
#   python3 bench/reply-context/driver.py --table /tmp/memoir-reply-bench/result-*.json   # the tables again
#
# The configurations are data (configs.json): the previous default ("contextSelection": "per-kind"), the default,
# and a promptTokenBudget grid. A configuration the service refuses with 400 is skipped and reported; a setting it
# does not echo back in the session is reported as ignored. Each runs under both self-reflection answers: single
# (names memory 1 alone relevant) and keywords (not sufficient; two or three words of the question).
#
# Needs Python 3 (standard library), a JDK 21+ (25 to compile the tests as the build does) and PostgreSQL with
# pgvector (database memoir_bench_reply, or BENCH_DB, created here: a jar from before a migration needs one of its own). Results (result-NAME.json and .md), logs, the generated
# data and the converted BEAM data go to $BENCH_OUT, never into the repository (BEAM is CC BY-SA).
#
# Environment: BENCH_OUT (/tmp/memoir-reply-bench), BENCH_PORT (18082), BENCH_JAR (target/memoir-0.1.0-SNAPSHOT.jar,
# built with ./mvnw -B -q package -DskipTests when missing), BENCH_SEED (20240501: the generated data and the
# sample), BENCH_SAMPLE (questions per data set, stratified by type; default 200; 0 = all), BENCH_DIALOGUES (only
# the first N dialogues; default all), BENCH_ONLY (configuration labels, comma-separated), BENCH_REFLECTION
# (single,keywords), BENCH_BEAM (../shared/data/beam-100k relative to the repository), BENCH_CONTEXT_TOKENS (8192:
# the fake's context and memoir.model.context-tokens), BENCH_FRESH=1 to drop and recreate the database first,
# BENCH_SKIP_COMPILE=1 to use target/test-classes and the saved test classpath as they are, BENCH_DUMP=N to write
# the first N reply requests of every run to requests-NAME.jsonl (for inspection), BENCH_JAVA_OPTS, BENCH_PART (all;
# tune or report: the questions of every other dialogue, so that the service is tuned on one half and reported on
# the other), BENCH_WRITE (history,instruction: the kinds the imported sessions write, those written without the
# model as the turns are recorded), BENCH_CONTEXT=1 (also ask POST /context before each chat: the evidence in its
# text, and whether that text is the reply request's memory block).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
HERE="$ROOT/bench/reply-context"
OUT="${BENCH_OUT:-/tmp/memoir-reply-bench}"
PORT="${BENCH_PORT:-18082}"
JAR="${BENCH_JAR:-$ROOT/target/memoir-0.1.0-SNAPSHOT.jar}"
SEED="${BENCH_SEED:-20240501}"
SAMPLE="${BENCH_SAMPLE:-200}"
DIALOGUES="${BENCH_DIALOGUES:-0}"
CONTEXT="${BENCH_CONTEXT_TOKENS:-8192}"
BEAM="${BENCH_BEAM:-$ROOT/../shared/data/beam-100k}"
DB="${BENCH_DB:-memoir_bench_reply}"
KEY=bench-key
BASE="http://127.0.0.1:${PORT}"
SERVICE_PID=""
FAKE_PID=""
mkdir -p "$OUT"
case "$(cd "$OUT" && pwd)/" in "$ROOT"/*) echo "BENCH_OUT must be outside the repository" >&2; exit 1 ;; esac

log() { echo "[reply-bench] $*" >&2; }
# compile_scripted_model, start_scripted_model, scripted_model_args
. "$ROOT/bench/lib/scripted-model.sh"

java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1
}

# A JDK 21 or newer: JAVA_HOME, the java on PATH, or the newest under /usr/lib/jvm.
pick_java() {
  local candidate
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && [ "$(java_major "$JAVA_HOME/bin/java")" -ge 21 ]; then
    JAVA="$JAVA_HOME/bin/java"; return 0
  fi
  if command -v java >/dev/null 2>&1 && [ "$(java_major java)" -ge 21 ]; then
    JAVA="$(command -v java)"; return 0
  fi
  for candidate in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    if [ -x "${candidate}bin/java" ] && [ "$(java_major "${candidate}bin/java")" -ge 21 ]; then
      export JAVA_HOME="${candidate%/}"; JAVA="${candidate}bin/java"; return 0
    fi
  done
  log "Memoir needs a JDK 21 or newer (set JAVA_HOME, or install one under /usr/lib/jvm)."
  exit 1
}

psql_super() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- env PGOPTIONS=--client-min-messages=warning psql -v ON_ERROR_STOP=1 -qtAX "$@"
  else
    sudo -u postgres env PGOPTIONS=--client-min-messages=warning psql -v ON_ERROR_STOP=1 -qtAX "$@"
  fi
}

# The memoir_bench_reply database with pgvector, as bench/retrieval/run.sh creates memoir_bench.
setup_database() {
  if ! psql_super -c "select 1" >/dev/null 2>&1; then
    log "no PostgreSQL answers: running scripts/local-postgres.sh"
    MEMOIR_DATABASES="$DB" "$ROOT/scripts/local-postgres.sh"
  fi
  if [ "${BENCH_FRESH:-0}" = 1 ]; then
    log "dropping database $DB"
    psql_super -c "drop database if exists $DB with (force)"
    rm -f "$OUT"/state-*.json
  fi
  if [ "$(psql_super -c "select 1 from pg_database where datname = '$DB'")" != "1" ]; then
    log "creating database $DB"
    psql_super -c "create database $DB owner memoir"
  fi
  psql_super -d "$DB" -c "create extension if not exists vector"
  local version
  version="$(psql_super -d "$DB" -c "select extversion from pg_extension where extname = 'vector'")"
  if [ "$(printf '%s\n%s\n' "0.8.2" "$version" | sort -V | head -n1)" != "0.8.2" ]; then
    psql_super -c "alter database $DB set max_parallel_maintenance_workers = 0"
  fi
}

build() {
  if [ ! -f "$JAR" ]; then
    log "building $JAR"
    ./mvnw -B -q package -DskipTests
  fi
  compile_scripted_model
}

# The service against the fake, configured as the integration tests configure it (IntegrationTest.settings).
start_service() {
  log "starting Memoir on port $PORT"
  scripted_model_args
  # shellcheck disable=SC2086  (BENCH_JAVA_OPTS: JVM options, split on spaces)
  "$JAVA" ${BENCH_JAVA_OPTS:-} -jar "$JAR" --server.port="$PORT" \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" --memoir.security.bootstrap-key="$KEY" \
    "${SCRIPTED_MODEL_ARGS[@]}" >"$OUT/service.log" 2>&1 &
  SERVICE_PID=$!
  for _ in $(seq 1 180); do
    if curl -sf "$BASE/actuator/health" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$SERVICE_PID" 2>/dev/null; then
      tail -n 40 "$OUT/service.log" >&2; log "Memoir did not start"; exit 1
    fi
    sleep 1
  done
  log "Memoir did not answer within 180 s"; exit 1
}

stop_all() {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill "$SERVICE_PID"; wait "$SERVICE_PID" 2>/dev/null || true
  fi
  if [ -n "$FAKE_PID" ] && kill -0 "$FAKE_PID" 2>/dev/null; then
    kill "$FAKE_PID"; wait "$FAKE_PID" 2>/dev/null || true
  fi
  SERVICE_PID=""; FAKE_PID=""
}
trap stop_all EXIT
trap 'stop_all; exit 143' INT TERM

driver() {
  local name="$1"; shift
  local extra=()
  [ -n "${BENCH_ONLY:-}" ] && extra+=(--only "$BENCH_ONLY")
  [ -n "${BENCH_DUMP:-}" ] && extra+=(--dump-requests "$BENCH_DUMP")
  [ "${BENCH_CONTEXT:-0}" = 1 ] && extra+=(--context)
  local part="${BENCH_PART:-all}"
  extra+=(--part "$part" --write "${BENCH_WRITE:-history,instruction}")
  python3 "$HERE/driver.py" --name "$name" "$@" --base-url "$BASE" --bootstrap-key "$KEY" --control "$CONTROL" \
    --sample "$SAMPLE" --seed "$SEED" --dialogues "$DIALOGUES" --reflection "${BENCH_REFLECTION:-single,keywords}" \
    --db-url "postgresql://memoir:memoir@127.0.0.1:5432/$DB" --out-dir "$OUT" "${extra[@]}" >/dev/null
  if [ "$part" = all ]; then RESULTS+=("$OUT/result-$name.json"); else RESULTS+=("$OUT/result-$name-$part.json"); fi
}

SETS=("$@"); [ ${#SETS[@]} -eq 0 ] && SETS=(generated beam)
pick_java
setup_database
build
start_scripted_model
start_service
RESULTS=()
started=$(date +%s)
for set in "${SETS[@]}"; do
  case "$set" in
    generated)
      if [ ! -f "$OUT/gen-data.json" ] || [ "$(cat "$OUT/gen-data.seed" 2>/dev/null)" != "$SEED" ]; then
        python3 "$ROOT/bench/retrieval/generate.py" --seed "$SEED" --out "$OUT/gen-data.json"
        echo "$SEED" >"$OUT/gen-data.seed"
      fi
      driver generated --data "$OUT/gen-data.json" ;;
    beam)
      [ -d "$BEAM" ] || { log "no BEAM data at $BEAM (set BENCH_BEAM)"; exit 1; }
      driver beam --beam "$BEAM" ;;
    beam5x)
      [ -d "$BEAM" ] || { log "no BEAM data at $BEAM (set BENCH_BEAM)"; exit 1; }
      driver beam5x --beam "$BEAM" --join 5 ;;
    *=*)
      driver "${set%%=*}" --data "${set#*=}" ;;
    *) log "unknown data set '$set' (generated, beam, beam5x or NAME=path/to/data.json)"; exit 1 ;;
  esac
done
stop_all
log "done in $(( $(date +%s) - started )) s; results in $OUT"
python3 "$HERE/driver.py" --table "${RESULTS[@]}" | tee "$OUT/results.md"
