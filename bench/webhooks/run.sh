#!/usr/bin/env bash
# Memoir's webhooks checked from outside: the packaged service against a fresh database and a scripted model
# (scripted_model.py), a receiver written from the Standard Webhooks specification (receiver.py), and a driver
# (drive.py) that makes every event kind happen through REST, stops the receiver while one user's events happen,
# starts it again, and prints what arrived. Python 3 standard library only.
#
#   bench/webhooks/run.sh
#
# Environment: BENCH_PORT (18097), BENCH_JAR (target/memoir-0.1.0-SNAPSHOT.jar, built when missing), BENCH_OUT
# (/tmp/memoir-webhooks-bench). Needs a JDK 21+ and PostgreSQL with pgvector (trust auth on 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
OUT="${BENCH_OUT:-/tmp/memoir-webhooks-bench}"
PORT="${BENCH_PORT:-18097}"
MODEL_PORT=18099
JAR="${BENCH_JAR:-$ROOT/target/memoir-0.1.0-SNAPSHOT.jar}"
DB=memoir_webhooks_bench
KEY=bench-key
mkdir -p "$OUT"
. scripts/lib/jdk.sh
pick_jdk
[ -f "$JAR" ] || ./mvnw -B -q package -DskipTests
psql_super() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- env PGOPTIONS=--client-min-messages=warning psql -h 127.0.0.1 -v ON_ERROR_STOP=1 -qtAX "$@"
  else
    psql -U postgres -h 127.0.0.1 -v ON_ERROR_STOP=1 -qtAX "$@"
  fi
}
psql_super -c "drop database if exists $DB with (force)"
psql_super -c "create database $DB owner memoir"
psql_super -d "$DB" -c "create extension if not exists vector"
python3 bench/webhooks/scripted_model.py --port "$MODEL_PORT" --model scripted &
MODEL=$!
# Receivers on 127.0.0.1 are refused unless allowed; retries start after a second (10 s by default) so that the
# outage is over in seconds; the purge runs every 5 s so that expiry and retention show within the run.
"$JAVA_HOME/bin/java" -jar "$JAR" --server.port="$PORT" \
  --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" --memoir.security.bootstrap-key="$KEY" \
  --spring.ai.openai.base-url="http://127.0.0.1:$MODEL_PORT/v1" --spring.ai.openai.api-key=none \
  --spring.ai.openai.chat.model=scripted \
  --memoir.webhooks.allowed-hosts=127.0.0.1 --memoir.jobs.polling-interval=500ms \
  --memoir.jobs.first-retry-delay=1s --memoir.retention.purge-interval=5s >"$OUT/service.log" 2>&1 &
PID=$!
trap 'kill $PID $MODEL 2>/dev/null || true; wait $PID $MODEL 2>/dev/null || true' EXIT
for _ in $(seq 1 180); do
  curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null 2>&1 && break
  kill -0 $PID 2>/dev/null || { tail -40 "$OUT/service.log"; exit 1; }
  sleep 1
done
python3 bench/webhooks/drive.py --base-url "http://127.0.0.1:$PORT" --bootstrap-key "$KEY" --workdir "$OUT" \
  | tee "$OUT/result.txt"
