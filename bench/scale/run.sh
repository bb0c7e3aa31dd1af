#!/usr/bin/env bash
# Scale benchmark of GET /memory?query= end to end: a fresh database, Flyway migration by the service itself, a
# tenant, a bulk load of synthetic memories, then the measurements. See docs/scale-benchmark.md.
#
#   bench/scale/run.sh                 # all steps: setup load measure
#   bench/scale/run.sh measure         # only some steps (setup, load, measure, flows), in the order given
#   TARGET=citus TOTAL=300000 SCALE_DB=memoir_scale_citus bench/scale/run.sh setup load measure flows
#
# Steps: setup (database, migration, tenant, anchors), load (load.py), measure (measure.py: search), flows
# (flows.py: each core flow's time, the service talking to the test suite's scripted model server, which answers at
# once; it compiles the test classes). TARGET=citus runs the same on the local Citus cluster of scripts/citus.sh, a
# coordinator and two workers (ports 9700-9702): the database is made on the three nodes, migrated by the service
# through the coordinator, distributed by scripts/citus-distribute.sql, and searched through the coordinator.
#
# Environment (defaults): TOTAL=1000000 SEED=42 SCALE_DB=memoir_scale PORT=18082 QUERIES=200 CONCURRENCY=32
#   TARGET=postgres (the PostgreSQL on 127.0.0.1:5432) or citus; FLOW_ROUNDS=20
#   ANCHORS_FROM=out/anchors-<db>.tsv reuses the anchors another database's setup embedded (same SEED)
#   VECTORS=anchored (vectors around the service's own bge embeddings of the topic pool) or synthetic
#   JAR=target/memoir-0.1.0-SNAPSHOT.jar (built with ./mvnw -B -q package -DskipTests when missing)
#   JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java if present, else java on PATH
# Needs: PostgreSQL 15+ with pgvector on 127.0.0.1:5432, role memoir/memoir (scripts/local-postgres.sh), root
# or sudo for the superuser steps, python3, psql, curl. The setup step DROPS the database $SCALE_DB.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"

TOTAL="${TOTAL:-1000000}"
SEED="${SEED:-42}"
SCALE_DB="${SCALE_DB:-memoir_scale}"
PORT="${PORT:-18082}"
QUERIES="${QUERIES:-200}"
CONCURRENCY="${CONCURRENCY:-32}"
VECTORS="${VECTORS:-anchored}"   # anchored: around the service's own embeddings of the topics; or synthetic
JAR="${JAR:-target/memoir-0.1.0-SNAPSHOT.jar}"
BOOTSTRAP_KEY="${BOOTSTRAP_KEY:-bench-key}"
TARGET="${TARGET:-postgres}"
FLOW_ROUNDS="${FLOW_ROUNDS:-20}"
OUT="$HERE/out"
case "$TARGET" in
  postgres) DB_PORT=5432 ;;
  citus) DB_PORT="${MEMOIR_CITUS_PORT:-9700}" ;;
  *) echo "TARGET is postgres or citus" >&2; exit 2 ;;
esac
DB_URL="postgresql://memoir:memoir@127.0.0.1:$DB_PORT/$SCALE_DB"
# Flyway's connection on Citus (docs/running.md#on-a-citus-cluster); a placeholder nobody reads elsewhere.
SERVICE_ARGS=()
[[ "$TARGET" == citus ]] && SERVICE_ARGS+=("--spring.flyway.init-sqls=set citus.multi_shard_modify_mode = 'sequential'")
mkdir -p "$OUT"

if [[ -z "${JAVA:-}" ]]; then
  if [[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]]; then JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  else JAVA=java; fi
fi
if [[ "$(id -u)" == 0 ]]; then AS_PG=(runuser -u postgres --); else AS_PG=(sudo -u postgres); fi

log() { echo "[$(date +%H:%M:%S)] $*"; }
# compile_scripted_model, start_scripted_model, scripted_model_args (the flows step)
. "$ROOT/bench/lib/scripted-model.sh"

SERVICE_PID=""
start_service() {
  if [[ ! -f "$JAR" ]]; then
    log "building $JAR"
    ./mvnw -B -q package -DskipTests
  fi
  log "starting the service on port $PORT (log: $OUT/service-$SCALE_DB.log)"
  "$JAVA" -Xmx4g -jar "$JAR" --server.port="$PORT" \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:$DB_PORT/$SCALE_DB" \
    --memoir.security.bootstrap-key="$BOOTSTRAP_KEY" "${SERVICE_ARGS[@]}" "$@" >>"$OUT/service-$SCALE_DB.log" 2>&1 &
  SERVICE_PID=$!
  for _ in $(seq 1 180); do
    if curl -fs "http://127.0.0.1:$PORT/actuator/health" | grep -q UP; then log "service up"; return; fi
    if ! kill -0 "$SERVICE_PID" 2>/dev/null; then tail -50 "$OUT/service-$SCALE_DB.log"; exit 1; fi
    sleep 1
  done
  echo "service did not come up" >&2; exit 1
}
stop_service() {
  if [[ -n "$SERVICE_PID" ]] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill "$SERVICE_PID"; wait "$SERVICE_PID" 2>/dev/null || true
    log "service stopped"
  fi
  SERVICE_PID=""
}
FAKE_PID=""
stop_all() {
  stop_service
  if [[ -n "$FAKE_PID" ]] && kill -0 "$FAKE_PID" 2>/dev/null; then kill "$FAKE_PID"; wait "$FAKE_PID" 2>/dev/null || true; fi
  FAKE_PID=""
}
trap stop_all EXIT

# psql as the superuser on one node of the target (PORT DB SQL...)
psql_node() {
  local port="$1" db="$2"; shift 2
  "${AS_PG[@]}" env PGOPTIONS=--client-min-messages=warning psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" \
    -d "$db" "$@"
}

# The database on the coordinator and both workers (scripts/citus.sh makes it as it makes its own), migrated by the
# service, then distributed (docs/running.md#on-a-citus-cluster).
setup_citus() {
  local port
  "$ROOT/scripts/citus.sh" build
  "$ROOT/scripts/citus.sh" start >/dev/null    # the clusters (and memoir_citus) exist and run
  for port in "$DB_PORT" $((DB_PORT + 1)) $((DB_PORT + 2)); do
    psql_node "$port" postgres -c "drop database if exists $SCALE_DB with (force)"
  done
  MEMOIR_CITUS_DB="$SCALE_DB" "$ROOT/scripts/citus.sh" start >/dev/null
  for port in "$DB_PORT" $((DB_PORT + 1)) $((DB_PORT + 2)); do
    # the HNSW builds run on the workers, with their own settings; pgvector before 0.8.2 builds serially (setup())
    psql_node "$port" postgres -c "alter database $SCALE_DB set maintenance_work_mem = '2GB'"
    if [[ "$(printf '%s\n0.8.2\n' "$(pgvector_version "$port")" | sort -V | head -1)" != "0.8.2" ]]; then
      psql_node "$port" postgres -c "alter database $SCALE_DB set max_parallel_maintenance_workers = 0"
    fi
  done
  start_service   # Flyway migrates the new database through the coordinator
  stop_service
  log "distributing the schema (scripts/citus-distribute.sql)"
  psql_node "$DB_PORT" "$SCALE_DB" -f "$ROOT/scripts/citus-distribute.sql" >/dev/null
}

pgvector_version() {
  psql_node "$1" "$SCALE_DB" -At -c "select extversion from pg_extension where extname = 'vector'"
}

setup() {
  if [[ "$TARGET" == citus ]]; then
    setup_citus
  else
    setup_postgres
  fi
  start_service
  curl -fs -X POST "http://127.0.0.1:$PORT/admin/tenants" -H "Authorization: Bearer $BOOTSTRAP_KEY" \
    -H 'Content-Type: application/json' -d '{"name": "scale-bench"}' >"$OUT/tenant-$SCALE_DB.json"
  log "tenant: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$OUT/tenant-$SCALE_DB.json")"
  if [[ "$VECTORS" == anchored && -n "${ANCHORS_FROM:-}" ]]; then
    # the same seed's anchors from another database's setup: the service's embeddings of the same texts
    cp "$ANCHORS_FROM" "$OUT/anchors-$SCALE_DB.tsv"
    log "anchors copied from $ANCHORS_FROM"
  elif [[ "$VECTORS" == anchored ]]; then
    # the topic pool, embedded by the service itself (its rows are removed again by the load)
    python3 "$HERE/anchors.py" --base-url "http://127.0.0.1:$PORT" --db-url "$DB_URL" \
      --tenant-file "$OUT/tenant-$SCALE_DB.json" --seed "$SEED"
  fi
  stop_service    # the load needs no service
}

setup_postgres() {
  log "creating database $SCALE_DB (dropped first if it exists)"
  "${AS_PG[@]}" psql -X -q -v ON_ERROR_STOP=1 -c "drop database if exists $SCALE_DB with (force)"
  "${AS_PG[@]}" psql -X -q -v ON_ERROR_STOP=1 -c "create database $SCALE_DB owner memoir"
  "${AS_PG[@]}" psql -X -q -v ON_ERROR_STOP=1 -d "$SCALE_DB" -c "create extension if not exists vector"
  # pgvector before 0.8.2 can overflow a buffer in parallel HNSW builds: build serially there
  # (scripts/local-postgres.sh does the same for Memoir's own databases).
  local version
  version="$("${AS_PG[@]}" psql -X -At -d "$SCALE_DB" -c "select extversion from pg_extension where extname = 'vector'")"
  if [[ "$(printf '%s\n0.8.2\n' "$version" | sort -V | head -1)" != "0.8.2" ]]; then
    log "pgvector $version: max_parallel_maintenance_workers = 0 on $SCALE_DB"
    "${AS_PG[@]}" psql -X -q -c "alter database $SCALE_DB set max_parallel_maintenance_workers = 0"
  fi
}

load() {
  local tenant
  tenant="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$OUT/tenant-$SCALE_DB.json")"
  local anchors=()
  [[ "$VECTORS" == anchored ]] && anchors=(--anchors "$OUT/anchors-$SCALE_DB.tsv")
  local citus=()
  [[ "$TARGET" == citus ]] && citus=(--citus)
  python3 "$HERE/load.py" --total "$TOTAL" --seed "$SEED" --tenant-id "$tenant" --db-url "$DB_URL" --replace \
    "${anchors[@]}" "${citus[@]}"
}

measure() {
  local citus=()
  [[ "$TARGET" == citus ]] && citus=(--citus)
  start_service
  python3 "$HERE/measure.py" --db-url "$DB_URL" --base-url "http://127.0.0.1:$PORT" \
    --tenant-file "$OUT/tenant-$SCALE_DB.json" --queries "$QUERIES" --concurrency "$CONCURRENCY" \
    ${MEASURE_SKIP:+--skip "$MEASURE_SKIP"} "${citus[@]}"
  stop_service
  if [[ "$TARGET" == citus ]]; then
    log "replay skipped on Citus (it reads the single server's statement log)"
    return
  fi
  # Replay: the server logs every statement of $SCALE_DB (superuser setting) while the API is queried again;
  # measure.py reads the service's own statements (durations, bge query vectors) back from the log.
  local pglog="${PG_LOG:-/var/log/postgresql/postgresql-15-main.log}"
  if [[ -r "$pglog" ]]; then
    "${AS_PG[@]}" psql -X -q -c "alter database $SCALE_DB set log_min_duration_statement = 0"
    start_service
    python3 "$HERE/measure.py" --db-url "$DB_URL" --base-url "http://127.0.0.1:$PORT" \
      --tenant-file "$OUT/tenant-$SCALE_DB.json" --queries "$QUERIES" --replay-log "$pglog" || true
    stop_service
    "${AS_PG[@]}" psql -X -q -c "alter database $SCALE_DB reset log_min_duration_statement"
  else
    log "no readable server log at $pglog (set PG_LOG): replay skipped"
  fi
}

# Each core flow's time (flows.py), the service calling the scripted model server, on the loaded database.
flows() {
  CONTEXT=8192
  compile_scripted_model
  start_scripted_model
  scripted_model_args
  start_service "${SCRIPTED_MODEL_ARGS[@]}"
  python3 "$HERE/flows.py" --base-url "http://127.0.0.1:$PORT" --bootstrap-key "$BOOTSTRAP_KEY" \
    --rounds "$FLOW_ROUNDS" --label "$TARGET $SCALE_DB" --out "$OUT/flows-$SCALE_DB.json"
  stop_all
}

steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(setup load measure)
for step in "${steps[@]}"; do
  case "$step" in
    setup|load|measure|flows) t0=$SECONDS; "$step"; log "step $step took $((SECONDS - t0)) s" ;;
    *) echo "unknown step $step (setup, load, measure, flows)" >&2; exit 2 ;;
  esac
done
