#!/usr/bin/env bash
# Scale benchmark of GET /memory?query= end to end: a fresh database, Flyway migration by the service itself, a
# tenant, a bulk load of synthetic memories, then the measurements. See docs/scale-benchmark.md.
#
#   bench/scale/run.sh                 # all steps: setup load measure
#   bench/scale/run.sh measure         # only some steps (setup, load, measure), in the order given
#
# Environment (defaults): TOTAL=1000000 SEED=42 SCALE_DB=memoir_scale PORT=18082 QUERIES=200 CONCURRENCY=32
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
OUT="$HERE/out"
DB_URL="postgresql://memoir:memoir@127.0.0.1:5432/$SCALE_DB"
mkdir -p "$OUT"

if [[ -z "${JAVA:-}" ]]; then
  if [[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]]; then JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  else JAVA=java; fi
fi
if [[ "$(id -u)" == 0 ]]; then AS_PG=(runuser -u postgres --); else AS_PG=(sudo -u postgres); fi

log() { echo "[$(date +%H:%M:%S)] $*"; }

SERVICE_PID=""
start_service() {
  if [[ ! -f "$JAR" ]]; then
    log "building $JAR"
    ./mvnw -B -q package -DskipTests
  fi
  log "starting the service on port $PORT (log: $OUT/service-$SCALE_DB.log)"
  "$JAVA" -Xmx4g -jar "$JAR" --server.port="$PORT" \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$SCALE_DB" \
    --memoir.security.bootstrap-key="$BOOTSTRAP_KEY" >"$OUT/service-$SCALE_DB.log" 2>&1 &
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
trap stop_service EXIT

setup() {
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
  start_service   # Flyway migrates the new database
  curl -fs -X POST "http://127.0.0.1:$PORT/admin/tenants" -H "Authorization: Bearer $BOOTSTRAP_KEY" \
    -H 'Content-Type: application/json' -d '{"name": "scale-bench"}' >"$OUT/tenant-$SCALE_DB.json"
  log "tenant: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$OUT/tenant-$SCALE_DB.json")"
  if [[ "$VECTORS" == anchored ]]; then
    # the topic pool, embedded by the service itself (its rows are removed again by the load)
    python3 "$HERE/anchors.py" --base-url "http://127.0.0.1:$PORT" --db-url "$DB_URL" \
      --tenant-file "$OUT/tenant-$SCALE_DB.json" --seed "$SEED"
  fi
  stop_service    # the load needs no service
}

load() {
  local tenant
  tenant="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$OUT/tenant-$SCALE_DB.json")"
  local anchors=()
  [[ "$VECTORS" == anchored ]] && anchors=(--anchors "$OUT/anchors-$SCALE_DB.tsv")
  python3 "$HERE/load.py" --total "$TOTAL" --seed "$SEED" --tenant-id "$tenant" --db-url "$DB_URL" --replace \
    "${anchors[@]}"
}

measure() {
  start_service
  python3 "$HERE/measure.py" --db-url "$DB_URL" --base-url "http://127.0.0.1:$PORT" \
    --tenant-file "$OUT/tenant-$SCALE_DB.json" --queries "$QUERIES" --concurrency "$CONCURRENCY"
  stop_service
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

steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(setup load measure)
for step in "${steps[@]}"; do
  case "$step" in
    setup|load|measure) t0=$SECONDS; "$step"; log "step $step took $((SECONDS - t0)) s" ;;
    *) echo "unknown step $step (setup, load, measure)" >&2; exit 2 ;;
  esac
done
