#!/usr/bin/env bash
# A 100,000-memory user exported and imported through Memoir with a bounded heap (bench/archive/measure.py).
#
#   bench/archive/run.sh            # fresh memoir_archive database, the service with -Xmx512m, then measure.py
#
# Environment: ARCHIVE_HEAP (512m), ARCHIVE_MEMORIES (100000), BENCH_PORT (18082), BENCH_JAR
# (target/memoir-0.1.0-SNAPSHOT.jar, built when missing), BENCH_OUT (/tmp/memoir-archive-bench).
# Needs what bench/retrieval/run.sh needs: Python 3, a JDK 21+, PostgreSQL with pgvector (trust auth on 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
OUT="${BENCH_OUT:-/tmp/memoir-archive-bench}"
PORT="${BENCH_PORT:-18082}"
JAR="${BENCH_JAR:-$ROOT/target/memoir-0.1.0-SNAPSHOT.jar}"
HEAP="${ARCHIVE_HEAP:-512m}"
DB=memoir_archive
KEY=bench-key
mkdir -p "$OUT"
. scripts/lib/jdk.sh
pick_jdk
[ -f "$JAR" ] || ./mvnw -B -q package -DskipTests
# Created as superuser, as bench/retrieval/run.sh does: pgvector is not a trusted extension.
psql_super() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- env PGOPTIONS=--client-min-messages=warning psql -v ON_ERROR_STOP=1 -qtAX "$@"
  else
    sudo -u postgres env PGOPTIONS=--client-min-messages=warning psql -v ON_ERROR_STOP=1 -qtAX "$@"
  fi
}
psql_super -c "drop database if exists $DB with (force)"
psql_super -c "create database $DB owner memoir"
psql_super -d "$DB" -c "create extension if not exists vector"
"$JAVA_HOME/bin/java" -Xmx"$HEAP" -Xlog:gc:file="$OUT/gc.log" -jar "$JAR" --server.port="$PORT" \
  --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" --memoir.security.bootstrap-key="$KEY" \
  --memoir.api.max-request-size=1MB >"$OUT/service.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 180); do
  curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null 2>&1 && break
  kill -0 $PID 2>/dev/null || { tail -40 "$OUT/service.log"; exit 1; }
  sleep 1
done
python3 bench/archive/measure.py --base-url "http://127.0.0.1:$PORT" --bootstrap-key "$KEY" \
  --db-url "postgresql://memoir:memoir@127.0.0.1:5432/$DB" --memories "${ARCHIVE_MEMORIES:-100000}" \
  --workdir "$OUT" --out "$OUT/result.json"
grep -o "Pause.*" "$OUT/gc.log" | tail -3 || true
