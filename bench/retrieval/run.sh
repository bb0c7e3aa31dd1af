#!/usr/bin/env bash
# Memoir's retrieval-quality benchmark, end to end: database, data set, service, measurements.
#
#   bench/retrieval/run.sh           # default search settings: generate the data, import it, search, BM25 baseline
#   bench/retrieval/run.sh grid      # the settings grid on the data already imported (run.py --skip-import)
#   bench/retrieval/run.sh grid norm1 rrf20   # only these grid entries
#   bench/retrieval/run.sh all       # both, then one table over every result
#   BENCH_SKIP_IMPORT=1 bench/retrieval/run.sh   # default settings on the data already imported (another jar, say)
#   bench/retrieval/run.sh long 0 128 256         # long assistant answers (generate_long.py), one import per passage
#                                                 # size (memoir.embedding.passage-tokens; 0 = one embedding each)
#   bench/retrieval/run.sh speakers               # imported with and without the turns' speaker names, side by side
#   bench/retrieval/run.sh supersession [weights] # update questions with the evidence turns added as facts: every fact
#                                                 # live, then the changes superseded (supersession.py), each with
#                                                 # memoir.search.recency-weight 0 and the weights given (default 1.0)
#   bench/retrieval/run.sh import                 # import speed against the embedding model alone (import_speed.py)
#   bench/retrieval/run.sh import before=/tmp/old.jar current=target/memoir-0.1.0-SNAPSHOT.jar
#                                                 # the same for each jar, side by side, each on a fresh database
#   bench/retrieval/run.sh hard                   # the harder, more realistic variant (generate_hard.py: small talk,
#                                                 # facts in passing, paraphrased questions naming no month, answers
#                                                 # in the turn after a question), in its own memoir_bench_hard
#                                                 # database; hard.json, state-hard.json, result-hard.* in $BENCH_OUT
#
# Needs Python 3 (standard library), a JDK 21+ and PostgreSQL with pgvector. If no PostgreSQL answers, the script
# runs scripts/local-postgres.sh (Debian; root or sudo) for the memoir_bench database. Results, logs and the
# generated data go to $BENCH_OUT, never into the repository.
#
# Environment: BENCH_OUT (/tmp/memoir-retrieval-bench), BENCH_PORT (18081), BENCH_JAR
# (target/memoir-0.1.0-SNAPSHOT.jar, built with ./mvnw -B -q package -DskipTests when missing), BENCH_SEED
# (20240501), BENCH_DB (memoir_bench; memoir_bench_hard for the hard mode), BENCH_JAVA_OPTS (JVM options for the service), BENCH_FRESH=1 to drop and recreate the memoir_bench database first, BENCH_SKIP_IMPORT=1 to search
# the data set and import already in $BENCH_OUT (data.json, state.json) instead of generating and importing again.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
HERE="$ROOT/bench/retrieval"
OUT="${BENCH_OUT:-/tmp/memoir-retrieval-bench}"
PORT="${BENCH_PORT:-18081}"
JAR="${BENCH_JAR:-$ROOT/target/memoir-0.1.0-SNAPSHOT.jar}"
SEED="${BENCH_SEED:-20240501}"
DB="${BENCH_DB:-memoir_bench}"
# The hard variant has a database of its own, so that its import neither adds to nor waits for the default set's.
if [ "${1:-}" = hard ] && [ -z "${BENCH_DB:-}" ]; then DB=memoir_bench_hard; fi
KEY=bench-key
BASE="http://127.0.0.1:${PORT}"
SERVICE_PID=""
mkdir -p "$OUT"

log() { echo "[retrieval-bench] $*" >&2; }

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

# The memoir_bench database with pgvector (created as superuser: pgvector is not a trusted extension).
setup_database() {
  if ! psql_super -c "select 1" >/dev/null 2>&1; then
    log "no PostgreSQL answers: running scripts/local-postgres.sh"
    MEMOIR_DATABASES="$DB" "$ROOT/scripts/local-postgres.sh"
  fi
  if [ "${BENCH_FRESH:-0}" = 1 ]; then
    log "dropping database $DB"
    psql_super -c "drop database if exists $DB with (force)"
    rm -f "$OUT/state.json"
  fi
  if [ "$(psql_super -c "select 1 from pg_database where datname = '$DB'")" != "1" ]; then
    log "creating database $DB"
    psql_super -c "create database $DB owner memoir"
  fi
  psql_super -d "$DB" -c "create extension if not exists vector"
  # As scripts/local-postgres.sh does: no parallel HNSW builds under pgvector < 0.8.2 (buffer overflow).
  local version
  version="$(psql_super -d "$DB" -c "select extversion from pg_extension where extname = 'vector'")"
  if [ "$(printf '%s\n%s\n' "0.8.2" "$version" | sort -V | head -n1)" != "0.8.2" ]; then
    psql_super -c "alter database $DB set max_parallel_maintenance_workers = 0"
  fi
}

build_jar() {
  if [ ! -f "$JAR" ]; then
    log "building $JAR"
    (cd "$ROOT" && ./mvnw -B -q package -DskipTests)
  fi
}

# start_service LABEL [--memoir.search.x=y ...]
start_service() {
  local label="$1"; shift
  log "starting Memoir ($label) on port $PORT"
  # shellcheck disable=SC2086  (BENCH_JAVA_OPTS: JVM options, e.g. a flight recording, split on spaces)
  "$JAVA" ${BENCH_JAVA_OPTS:-} -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" \
    --memoir.security.bootstrap-key="$KEY" "$@" >"$OUT/service-$label.log" 2>&1 &
  SERVICE_PID=$!
  for _ in $(seq 1 180); do
    if curl -sf "$BASE/actuator/health" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$SERVICE_PID" 2>/dev/null; then
      tail -n 40 "$OUT/service-$label.log" >&2; log "Memoir did not start"; exit 1
    fi
    sleep 1
  done
  log "Memoir did not answer within 180 s"; exit 1
}

stop_service() {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill "$SERVICE_PID"; wait "$SERVICE_PID" 2>/dev/null || true
  fi
  SERVICE_PID=""
}
trap stop_service EXIT

run_default() {
  local import=()
  if [ "${BENCH_SKIP_IMPORT:-0}" = 1 ]; then
    if [ ! -f "$OUT/state.json" ] || [ ! -f "$OUT/data.json" ]; then
      log "BENCH_SKIP_IMPORT=1 needs $OUT/data.json and $OUT/state.json from an earlier run"; exit 1
    fi
    import=(--skip-import)
  else
    python3 "$HERE/generate.py" --seed "$SEED" --out "$OUT/data.json"
  fi
  start_service default
  python3 "$HERE/run.py" --base-url "$BASE" --bootstrap-key "$KEY" --data "$OUT/data.json" --state "$OUT/state.json" \
    --db-url "postgresql://memoir:memoir@127.0.0.1:5432/$DB" "${import[@]}" --label default --settings "service defaults" --out "$OUT/result-default.json" \
    | tee "$OUT/result-default.md"
  stop_service
}

# The hard variant (generate_hard.py), imported and searched with the service defaults as run_default does; its own
# file names, so that one $BENCH_OUT can hold both sets' results.
run_hard() {
  local import=()
  if [ "${BENCH_SKIP_IMPORT:-0}" = 1 ]; then
    if [ ! -f "$OUT/state-hard.json" ] || [ ! -f "$OUT/hard.json" ]; then
      log "BENCH_SKIP_IMPORT=1 needs $OUT/hard.json and $OUT/state-hard.json from an earlier run"; exit 1
    fi
    import=(--skip-import)
  else
    python3 "$HERE/generate_hard.py" --seed "$SEED" --out "$OUT/hard.json"
  fi
  start_service hard ${BENCH_ARGS:-}
  python3 "$HERE/run.py" --base-url "$BASE" --bootstrap-key "$KEY" --data "$OUT/hard.json" --state "$OUT/state-hard.json" \
    --db-url "postgresql://memoir:memoir@127.0.0.1:5432/$DB" "${import[@]}" --label hard \
    --settings "service defaults ${BENCH_ARGS:-}" --out "$OUT/result-hard.json" | tee "$OUT/result-hard.md"
  stop_service
}

# The same dialogue imported twice on one service, into two tenants: turns by role alone ("User: ..."), then with
# each turn's speaker named ("Caroline: ..."); every question searched in both.
run_speakers() {
  python3 "$HERE/generate.py" --seed "$SEED" --out "$OUT/data.json"
  start_service default
  local variant flag
  for variant in roles speakers; do
    flag=(); [ "$variant" = speakers ] && flag=(--speakers)
    python3 "$HERE/run.py" --base-url "$BASE" --bootstrap-key "$KEY" --data "$OUT/data.json" \
      --state "$OUT/state-$variant.json" --db-url "postgresql://memoir:memoir@127.0.0.1:5432/$DB" "${flag[@]}" \
      --label "$variant" --settings "service defaults" --out "$OUT/result-$variant.json" | tee "$OUT/result-$variant.md"
  done
  stop_service
  python3 "$HERE/run.py" --summarize "$OUT/result-roles.json" "$OUT/result-speakers.json" | tee "$OUT/speakers.md"
}

# The data set imported once (run.py, which also measures every question with the service defaults), its evidence
# turns added as facts, then the update questions searched with every fact live and with the changes superseded,
# for recency weight 0 and each weight given; for each weight, every question of run.py again, to see what the
# recency ranking does to the rest.
run_supersession() {
  local weights=("$@"); [ ${#weights[@]} -eq 0 ] && weights=(1.0)
  python3 "$HERE/generate.py" --seed "$SEED" --out "$OUT/data.json"
  rm -f "$OUT/facts.json"
  start_service default
  python3 "$HERE/run.py" --base-url "$BASE" --bootstrap-key "$KEY" --data "$OUT/data.json" --state "$OUT/state.json" \
    --db-url "postgresql://memoir:memoir@127.0.0.1:5432/$DB" --modes hybrid --label "recency 0" \
    --settings "service defaults" --out "$OUT/result-recency0.json" | tee "$OUT/result-recency0.md"
  local results=() weight how
  for weight in 0 "${weights[@]}"; do
    if [ "$weight" != 0 ]; then
      stop_service
      start_service "recency$weight" --memoir.search.recency-weight="$weight"
      python3 "$HERE/run.py" --base-url "$BASE" --bootstrap-key "$KEY" --data "$OUT/data.json" \
        --state "$OUT/state.json" --skip-import --modes hybrid --label "recency $weight" \
        --settings "memoir.search.recency-weight=$weight" --out "$OUT/result-recency$weight.json" \
        | tee "$OUT/result-recency$weight.md"
    fi
    for how in none oracle; do
      python3 "$HERE/supersession.py" --base-url "$BASE" --data "$OUT/data.json" --state "$OUT/state.json" \
        --facts "$OUT/facts.json" --supersede "$how" --label "supersede $how, recency $weight" \
        --out "$OUT/supersession-$how-$weight.json" >/dev/null
      results+=("$OUT/supersession-$how-$weight.json")
    done
  done
  stop_service
  python3 "$HERE/supersession.py" --table "${results[@]}" | tee "$OUT/supersession.md"
  python3 "$HERE/run.py" --summarize "$OUT/result-recency0.json" \
    $(for weight in "${weights[@]}"; do echo "$OUT/result-recency$weight.json"; done) | tee -a "$OUT/supersession.md"
}

# LABEL|MODES|service arguments. Every entry names both fusion settings and the lexical ranking, so that it
# measures the same thing whatever the jar's defaults are: the first grid was run against rrf-k 60 and lexical
# weight 1.0, the defaults until the retrieval benchmark chose rrf-k 20 and lexical weight 0.3, and every entry
# before the rarity-* ones was run with lexical-ranking ts_rank, the default until commit 7102e2c made it rarity.
OLD_FUSION="--memoir.search.rrf-k=60 --memoir.search.lexical-weight=1.0"
TS_RANK="--memoir.search.lexical-ranking=ts_rank"
RARITY="--memoir.search.lexical-ranking=rarity"
# Every lexical rank counting in full: the fusion of every entry before the coverage-* ones (the default until commit
# faa3799; older jars ignore the setting).
PLAIN_RRF="--memoir.search.fusion=rrf"
COVERAGE="--memoir.search.fusion=coverage-weighted --memoir.search.rrf-k=20"
GRID=(
  "norm1|lexical,hybrid|--memoir.search.lexical-normalization=1 $TS_RANK $OLD_FUSION $PLAIN_RRF"
  "norm32|lexical,hybrid|--memoir.search.lexical-normalization=32 $TS_RANK $OLD_FUSION $PLAIN_RRF"
  "ts_rank_cd|lexical,hybrid|--memoir.search.lexical-ranking=ts_rank_cd $OLD_FUSION $PLAIN_RRF"
  "rrf20|hybrid|$TS_RANK --memoir.search.rrf-k=20 --memoir.search.lexical-weight=1.0 $PLAIN_RRF"
  "lexw0.7|hybrid|$TS_RANK --memoir.search.rrf-k=60 --memoir.search.lexical-weight=0.7 $PLAIN_RRF"
  "lexw1.5|hybrid|$TS_RANK --memoir.search.rrf-k=60 --memoir.search.lexical-weight=1.5 $PLAIN_RRF"
  "lexw0.5|hybrid|$TS_RANK --memoir.search.rrf-k=60 --memoir.search.lexical-weight=0.5 $PLAIN_RRF"
  "lexw0.3|hybrid|$TS_RANK --memoir.search.rrf-k=60 --memoir.search.lexical-weight=0.3 $PLAIN_RRF"
  "cand50|hybrid|--memoir.search.candidates=50 $TS_RANK $OLD_FUSION $PLAIN_RRF"
  "rrf20-lexw0.3|hybrid|$TS_RANK --memoir.search.rrf-k=20 --memoir.search.lexical-weight=0.3 $PLAIN_RRF"
  "fusion-old|hybrid|$TS_RANK $OLD_FUSION $PLAIN_RRF"
  "rrf20-lexw0.5|hybrid|$TS_RANK --memoir.search.rrf-k=20 --memoir.search.lexical-weight=0.5 $PLAIN_RRF"
  # The rarity ranking (jars from commit 7102e2c on; older jars do not know the value and fail to start).
  # rarity-rrf20-lexw0.3 is the same as the defaults of that commit, with lexical mode included.
  "rarity-rrf20-lexw0.3|lexical,hybrid|$RARITY --memoir.search.rrf-k=20 --memoir.search.lexical-weight=0.3 $PLAIN_RRF"
  "rarity-rrf20-lexw0.5|hybrid|$RARITY --memoir.search.rrf-k=20 --memoir.search.lexical-weight=0.5 $PLAIN_RRF"
  "rarity-rrf20-lexw1|hybrid|$RARITY --memoir.search.rrf-k=20 --memoir.search.lexical-weight=1.0 $PLAIN_RRF"
  "rarity-fusion-old|hybrid|$RARITY $OLD_FUSION $PLAIN_RRF"
  # ts_rank under the fusion defaults of commit 7102e2c, lexical mode included: the control for the rarity-* entries.
  "ts_rank-rrf20-lexw0.3|lexical,hybrid|$TS_RANK --memoir.search.rrf-k=20 --memoir.search.lexical-weight=0.3 $PLAIN_RRF"
  # Lexical ranks weighted by the share of the query's word rarity a memory holds (jars from commit faa3799 on);
  # coverage-lexw1 names the defaults of that commit.
  "coverage-lexw0.3|hybrid|$RARITY --memoir.search.fusion=coverage-weighted --memoir.search.rrf-k=20 --memoir.search.lexical-weight=0.3"
  "coverage-lexw0.5|hybrid|$RARITY --memoir.search.fusion=coverage-weighted --memoir.search.rrf-k=20 --memoir.search.lexical-weight=0.5"
  "coverage-lexw1|hybrid|$RARITY --memoir.search.fusion=coverage-weighted --memoir.search.rrf-k=20 --memoir.search.lexical-weight=1.0"
  "coverage-lexw1.5|hybrid|$RARITY --memoir.search.fusion=coverage-weighted --memoir.search.rrf-k=20 --memoir.search.lexical-weight=1.5"
  "coverage-lexw2|hybrid|$RARITY --memoir.search.fusion=coverage-weighted --memoir.search.rrf-k=20 --memoir.search.lexical-weight=2.0"
  "coverage-rrf60-lexw1|hybrid|$RARITY --memoir.search.fusion=coverage-weighted --memoir.search.rrf-k=60 --memoir.search.lexical-weight=1.0"
  # The third ranking for a question naming a month with its year (jars from the commit after a338584 on):
  # period0-lexw1 names the defaults before it.
  "period0-lexw1|hybrid|$RARITY $COVERAGE --memoir.search.lexical-weight=1.0 --memoir.search.period-weight=0"
  "period1-lexw1|hybrid|$RARITY $COVERAGE --memoir.search.lexical-weight=1.0 --memoir.search.period-weight=1.0"
  "period1-lexw1.5|hybrid|$RARITY $COVERAGE --memoir.search.lexical-weight=1.5 --memoir.search.period-weight=1.0"
  "period1-lexw2|hybrid|$RARITY $COVERAGE --memoir.search.lexical-weight=2.0 --memoir.search.period-weight=1.0"
)

# run_grid [LABEL ...]: every grid entry, or only the ones named, on the import in $OUT/$BENCH_STATE (state.json;
# state-roles.json or state-speakers.json after 'speakers', whose name then ends each result's label)
run_grid() {
  local state="${BENCH_STATE:-state.json}" suffix=""
  if [ ! -f "$OUT/$state" ]; then log "nothing imported yet: run '$0' first"; exit 1; fi
  if [ "$state" != state.json ]; then suffix="-${state#state-}"; suffix="${suffix%.json}"; fi
  local entry label modes args
  for entry in "${GRID[@]}"; do
    IFS='|' read -r label modes args <<<"$entry"
    if [ "$#" -gt 0 ] && [[ " $* " != *" $label "* ]]; then continue; fi
    # shellcheck disable=SC2086
    start_service "$label" $args
    label="$label$suffix"
    python3 "$HERE/run.py" --base-url "$BASE" --data "$OUT/data.json" --state "$OUT/$state" --skip-import \
      --no-bm25 --modes "$modes" --label "$label" --settings="$args" --out "$OUT/result-$label.json" \
      | tee "$OUT/result-$label.md"
    stop_service
  done
}

# run_long [PASSAGE_TOKENS ...]: the long-answer data set (generate_long.py), imported afresh for each passage size
# (memoir.embedding.passage-tokens; 0 embeds every memory whole, as before passages), then searched
run_long() {
  local sizes=("$@")
  [ "${#sizes[@]}" -gt 0 ] || sizes=(0 128 256)
  python3 "$HERE/generate_long.py" --out "$OUT/long.json"
  local size
  for size in "${sizes[@]}"; do
    start_service "long-p$size" --memoir.embedding.passage-tokens="$size" \
      --memoir.embedding.passage-overlap="$((size / 8))" ${BENCH_ARGS:-}
    python3 "$HERE/run.py" --base-url "$BASE" --bootstrap-key "$KEY" --data "$OUT/long.json" \
      --state "$OUT/long-state-p$size.json" --db-url "postgresql://memoir:memoir@127.0.0.1:5432/$DB" \
      --label "long-p$size" --settings "passage-tokens $size ${BENCH_ARGS:-}" --out "$OUT/result-long-p$size.json" \
      | tee "$OUT/result-long-p$size.md"
    stop_service
  done
  local results=()
  for size in "${sizes[@]}"; do results+=("$OUT/result-long-p$size.json"); done
  python3 "$HERE/run.py" --summarize "${results[@]}"
}

# run_import [LABEL=JAR ...]: import speed (import_speed.py) with each jar (default: this checkout's), each on a
# fresh memoir_bench_import database, then one table over them
run_import() {
  local entries=("$@")
  [ "${#entries[@]}" -gt 0 ] || entries=("current=$JAR")
  python3 "$HERE/generate.py" --seed "$SEED" --out "$OUT/data.json"
  python3 "$HERE/generate_long.py" --out "$OUT/long.json"
  (cd "$ROOT" && ./mvnw -B -q dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" -Dmdep.includeScope=runtime)
  local entry label results=() main_db="$DB" main_jar="$JAR"
  DB=memoir_bench_import
  for entry in "${entries[@]}"; do
    label="${entry%%=*}"; JAR="${entry#*=}"
    psql_super -c "drop database if exists $DB with (force)"
    BENCH_FRESH=0 setup_database
    start_service "import-$label" ${BENCH_ARGS:-}
    python3 "$HERE/import_speed.py" --base-url "$BASE" --bootstrap-key "$KEY" --short "$OUT/data.json" \
      --long "$OUT/long.json" --db-url "postgresql://memoir:memoir@127.0.0.1:5432/$DB" --classpath "$(cat "$OUT/cp.txt")" \
      --java "$JAVA" --label "$label" --workdir "$OUT" --out "$OUT/import-$label.json" >/dev/null
    stop_service
    # The embedding limit with nothing else running: the service stopped.
    python3 "$HERE/import_speed.py" --limit-of "$OUT/import-$label.json" --classpath "$(cat "$OUT/cp.txt")" \
      --java "$JAVA" --workdir "$OUT" >/dev/null
    results+=("$OUT/import-$label.json")
  done
  DB="$main_db"; JAR="$main_jar"
  python3 "$HERE/import_speed.py" --table "${results[@]}" | tee "$OUT/import.md"
}

pick_java
setup_database
build_jar
case "${1:-default}" in
  default) run_default ;;
  grid) shift; run_grid "$@" ;;
  all) run_default; run_grid ;;
  long) shift; run_long "$@"; exit 0 ;;
  import) shift; run_import "$@"; exit 0 ;;
  speakers) run_speakers; exit 0 ;;
  supersession) shift; run_supersession "$@"; exit 0 ;;
  hard) run_hard; exit 0 ;;
  *) echo "usage: $0 [default|grid|all|long [passage-tokens ...]|import [label=jar ...]|speakers|supersession [weights]|hard]" >&2; exit 2 ;;
esac
results=("$OUT/result-default.json")
for entry in "${GRID[@]}"; do
  f="$OUT/result-${entry%%|*}.json"; [ -f "$f" ] && results+=("$f")
done
if [ -f "${results[0]}" ]; then python3 "$HERE/run.py" --summarize "${results[@]}"; fi
