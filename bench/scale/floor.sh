#!/usr/bin/env bash
# The search floor of this tree's jar beside an earlier one's, measured alternately on one machine, so that a
# regression shows as a ratio rather than as an absolute time (docs/scale-benchmark.md, "The search floor").
#
#   bench/scale/floor.sh bc380c0            # the earlier commit to compare with (built in a worktree, cached)
#   ROUNDS=3 bench/scale/floor.sh bc380c0
#
# Each round runs every jar in turn (the order swapped every other round), each on a database created afresh
# (memoir_floor), migrated by that jar, with one tenant: 60 warm-up searches, then 200 timed ones for users with no
# memories, each query different (embedded: "cold"), then 200 of one repeated query ("cached": its embedding from
# the service's cache). Prints the p50 and p95 of each run, and each jar's median over the rounds with the ratio
# of this tree's to the earlier one's, and in how many rounds this tree's was at or below (equal jars: about half).
#
# Environment (defaults): ROUNDS=2 PORT=18083 FLOOR_DB=memoir_floor WARMUP=60 REQUESTS=200
#   JAR=target/memoir-0.1.0-SNAPSHOT.jar (this tree's; built with ./mvnw -B -q package -DskipTests when missing)
#   OLD_JAR=<a jar> compares with that jar instead of building the earlier commit's (the argument is then its label)
#   JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java if present, else java on PATH
#   STATEMENT_LOG=1 logs every statement the service sends to $FLOOR_DB (superuser setting) during the cached
#   searches, and counts the statements per search from PostgreSQL's log (PG_LOG, default Debian's path).
# Needs: PostgreSQL 15+ with pgvector on 127.0.0.1:5432 (scripts/local-postgres.sh), root or sudo, python3, curl.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"

EARLIER="${1:?usage: bench/scale/floor.sh <earlier commit>}"
ROUNDS="${ROUNDS:-2}"
PORT="${PORT:-18083}"
FLOOR_DB="${FLOOR_DB:-memoir_floor}"
WARMUP="${WARMUP:-60}"
REQUESTS="${REQUESTS:-200}"
JAR="${JAR:-target/memoir-0.1.0-SNAPSHOT.jar}"
BOOTSTRAP_KEY=floor-key
OUT="$HERE/out"
PG_LOG="${PG_LOG:-/var/log/postgresql/postgresql-15-main.log}"
mkdir -p "$OUT/jars"

if [[ -z "${JAVA:-}" ]]; then
  if [[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]]; then JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  else JAVA=java; fi
fi
if [[ "$(id -u)" == 0 ]]; then AS_PG=(runuser -u postgres --); else AS_PG=(sudo -u postgres); fi
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

# The earlier commit's jar, built once in a worktree of its own and kept under out/jars.
earlier_jar() {
  local sha jar tree
  sha="$(git rev-parse --short=12 "$EARLIER^{commit}")"
  jar="$OUT/jars/memoir-$sha.jar"
  if [[ ! -f "$jar" ]]; then
    tree="$(mktemp -d)/memoir-$sha"
    log "building the jar of $EARLIER ($sha) in $tree"
    git worktree add --detach "$tree" "$sha" >/dev/null
    (cd "$tree" && . scripts/lib/jdk.sh && pick_jdk >/dev/null && ./mvnw -B -q package -DskipTests >&2)
    cp "$tree/target/memoir-0.1.0-SNAPSHOT.jar" "$jar"
    git worktree remove --force "$tree"
  fi
  echo "$jar"
}

if [[ ! -f "$JAR" ]]; then
  log "building $JAR"
  (. scripts/lib/jdk.sh && pick_jdk >/dev/null && ./mvnw -B -q package -DskipTests >&2)
fi
OLD_JAR="${OLD_JAR:-$(earlier_jar)}"
NEW_JAR="$JAR"

SERVICE_PID=""
stop_service() {
  if [[ -n "$SERVICE_PID" ]] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill "$SERVICE_PID"; wait "$SERVICE_PID" 2>/dev/null || true
  fi
  SERVICE_PID=""
}
trap stop_service EXIT

fresh_database() {
  "${AS_PG[@]}" psql -X -q -v ON_ERROR_STOP=1 -c "drop database if exists $FLOOR_DB with (force)"
  "${AS_PG[@]}" psql -X -q -v ON_ERROR_STOP=1 -c "create database $FLOOR_DB owner memoir"
  "${AS_PG[@]}" psql -X -q -v ON_ERROR_STOP=1 -d "$FLOOR_DB" -c "create extension if not exists vector"
}

# One run of one jar: a fresh database, the service, a tenant, the searches; prints floor.py's JSON line.
run() {
  local label="$1" jar="$2"
  fresh_database
  "$JAVA" -Xmx2g -jar "$jar" --server.port="$PORT" \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$FLOOR_DB" \
    --memoir.security.bootstrap-key="$BOOTSTRAP_KEY" >"$OUT/floor-service-$label.log" 2>&1 &
  SERVICE_PID=$!
  for _ in $(seq 1 180); do
    curl -fs "http://127.0.0.1:$PORT/actuator/health" | grep -q UP && break
    kill -0 "$SERVICE_PID" 2>/dev/null || { tail -30 "$OUT/floor-service-$label.log" >&2; exit 1; }
    sleep 1
  done
  local key
  key="$(curl -fs -X POST "http://127.0.0.1:$PORT/admin/tenants" -H "Authorization: Bearer $BOOTSTRAP_KEY" \
    -H 'Content-Type: application/json' -d "{\"name\": \"floor-$label\"}" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiKey"])')"
  python3 "$HERE/floor.py" --base-url "http://127.0.0.1:$PORT" --key "$key" --label "$label" \
    --warmup "$WARMUP" --requests "$REQUESTS"
  if [[ "${STATEMENT_LOG:-}" == 1 && -r "$PG_LOG" ]]; then
    "${AS_PG[@]}" psql -X -q -c "alter database $FLOOR_DB set log_statement = 'all'"
    local before
    # New connections pick the setting up: the service's pool keeps its old ones, so restart it.
    stop_service
    "$JAVA" -Xmx2g -jar "$jar" --server.port="$PORT" \
      --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$FLOOR_DB" \
      --memoir.security.bootstrap-key="$BOOTSTRAP_KEY" >>"$OUT/floor-service-$label.log" 2>&1 &
    SERVICE_PID=$!
    for _ in $(seq 1 180); do curl -fs "http://127.0.0.1:$PORT/actuator/health" | grep -q UP && break; sleep 1; done
    before="$(wc -l <"$PG_LOG")"
    python3 "$HERE/floor.py" --base-url "http://127.0.0.1:$PORT" --key "$key" --label "$label-log" \
      --warmup 0 --requests 20 >/dev/null
    tail -n +"$((before + 1))" "$PG_LOG" | grep -c "@$FLOOR_DB LOG: " \
      | python3 -c "import sys; n = int(sys.stdin.read()); print(f'{sys.argv[1]}: {n} statements for 40 searches, {n / 40:.1f} a search', file=sys.stderr)" "$label"
    "${AS_PG[@]}" psql -X -q -c "alter database $FLOOR_DB reset log_statement"
  fi
  stop_service
}

results="$OUT/floor-$(date +%Y%m%d-%H%M%S).jsonl"
for round in $(seq 1 "$ROUNDS"); do
  if (( round % 2 == 1 )); then order=(earlier current); else order=(current earlier); fi
  for which in "${order[@]}"; do
    if [[ "$which" == earlier ]]; then jar="$OLD_JAR"; label="$EARLIER"; else jar="$NEW_JAR"; label=current; fi
    log "round $round: $label"
    run "$label" "$jar" | python3 -c "import json,sys; d = json.loads(sys.stdin.read()); d['round'] = $round; print(json.dumps(d))" \
      | tee -a "$results"
  done
done

python3 - "$results" "$EARLIER" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
earlier = sys.argv[2]
print()
print("| jar | round | cold p50 | cold p95 | cached p50 | cached p95 |")
print("|---|---:|---:|---:|---:|---:|")
for r in rows:
    print(f"| {r['label']} | {r['round']} | {r['cold']['p50']} | {r['cold']['p95']} | {r['cached']['p50']} | {r['cached']['p95']} |")
def med(label, kind, q):
    return statistics.median(r[kind][q] for r in rows if r["label"] == label)
print()
for kind in ("cold", "cached"):
    for q in ("p50", "p95"):
        old, new = med(earlier, kind, q), med("current", kind, q)
        # Rounds in which the current jar was at or below: one jar's rounds differ by several ms on a 2-core machine,
        # so two equal jars are at or below in about half the rounds (docs/scale-benchmark.md, the fifth machine).
        by_round = {}
        for r in rows:
            by_round.setdefault(r["round"], {})[r["label"]] = r[kind][q]
        pairs = [v for v in by_round.values() if earlier in v and "current" in v]
        below = sum(1 for v in pairs if v["current"] <= v[earlier])
        print(f"{kind} {q}: {earlier} {old:.2f} ms, current {new:.2f} ms, ratio {new / old:.2f}, "
              f"current at or below in {below} of {len(pairs)} rounds")
EOF
