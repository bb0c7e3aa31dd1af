#!/usr/bin/env bash
# The search floor of one jar in a steady state: a fresh database, 500 warm-up searches, then N timed ones for a
# user with no memories, all of one query (its embedding from the service's cache; with COLD=1 each different), and
# the CPU time the service's JVM spent on them. Where bench/scale/floor.sh's short runs right after a start are
# dominated by warm-up, this shows what each search costs once the JIT has settled (docs/scale-benchmark.md, "The
# search floor").
#
#   bench/scale/floor-steady.sh JAR LABEL            # a new connection per search, as floor.sh's client makes
#   KEEP=1 N=3000 bench/scale/floor-steady.sh JAR LABEL   # one kept-alive connection
#   JFR=/tmp/floor.jfr bench/scale/floor-steady.sh JAR LABEL   # and a JFR profile of the timed searches
#   WARMUP=0 N=260 JFR=/tmp/cold.jfr bench/scale/floor-steady.sh JAR LABEL   # the first searches after a start
#                                                 (read it with: jfr view hot-methods /tmp/floor.jfr)
#   COLD=1 bench/scale/floor-steady.sh JAR LABEL   # every query different, so each is embedded (floor.sh's "cold")
#
# Prints: LABEL: cpu <ms of JVM CPU per search>, wall <ms per search>, p50, p95.
# Needs: PostgreSQL with pgvector on 127.0.0.1:5432 (scripts/local-postgres.sh), root or sudo, python3, curl.
set -euo pipefail
JAR="${1:?usage: bench/scale/floor-steady.sh JAR LABEL}"
LABEL="${2:?usage: bench/scale/floor-steady.sh JAR LABEL}"
N="${N:-1500}"
PORT="${PORT:-18090}"
DB="${FLOOR_DB:-memoir_floor_steady}"
if [[ -z "${JAVA:-}" ]]; then
  if [[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]]; then JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  else JAVA=java; fi
fi
if [[ "$(id -u)" == 0 ]]; then AS_PG=(runuser -u postgres --); else AS_PG=(sudo -u postgres); fi
"${AS_PG[@]}" psql -X -q -c "drop database if exists $DB with (force)" 2>/dev/null
"${AS_PG[@]}" psql -X -q -c "create database $DB owner memoir"
"${AS_PG[@]}" psql -X -q -d "$DB" -c "create extension if not exists vector"
"$JAVA" -Xmx2g -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" \
  --memoir.security.bootstrap-key=floor-key >"/tmp/floor-steady-$LABEL.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 180); do curl -fs "http://127.0.0.1:$PORT/actuator/health" | grep -q UP && break; sleep 1; done
KEY=$(curl -fs -X POST "http://127.0.0.1:$PORT/admin/tenants" -H "Authorization: Bearer floor-key" \
  -H 'Content-Type: application/json' -d '{"name":"floor-steady"}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiKey"])')
JCMD="$(dirname "$(command -v "$JAVA")")/jcmd" python3 - "$PORT" "$KEY" "$PID" "$N" "$LABEL" <<'PY'
import http.client, os, sys, time
port, key, pid, n, label = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
ticks = os.sysconf("SC_CLK_TCK")
kept = http.client.HTTPConnection("127.0.0.1", port)
PATH = "/memory?userId=nobody&query=what+did+I+say+about+rivers"
searches = 0

def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks

def search():
    global searches
    searches += 1
    conn = kept if os.environ.get("KEEP") else http.client.HTTPConnection("127.0.0.1", port)
    # Cold: a query of its own each time (a number the service has not embedded), as floor.sh's cold searches.
    path = PATH + f"+{searches}" if os.environ.get("COLD") else PATH
    conn.request("GET", path, headers={"Authorization": "Bearer " + key})
    response = conn.getresponse()
    response.read()
    assert response.status == 200, response.status
    if conn is not kept:
        conn.close()

for _ in range(int(os.environ.get("WARMUP", "500"))):
    search()
jfr = os.environ.get("JFR")
if jfr:
    import subprocess
    subprocess.run([os.environ["JCMD"], pid, "JFR.start", "name=floor", "settings=profile", "filename=" + jfr],
                   check=True, capture_output=True)
cpu0, t0, times = cpu(), time.perf_counter(), []
for _ in range(n):
    start = time.perf_counter()
    search()
    times.append(time.perf_counter() - start)
t1, cpu1 = time.perf_counter(), cpu()
if jfr:
    subprocess.run([os.environ["JCMD"], pid, "JFR.stop", "name=floor"], check=True, capture_output=True)
times.sort()
print(f"{label}: cpu {1000 * (cpu1 - cpu0) / n:.2f} ms, wall {1000 * (t1 - t0) / n:.2f} ms, "
      f"p50 {1000 * times[n // 2]:.2f}, p95 {1000 * times[int(n * 0.95)]:.2f}")
PY
