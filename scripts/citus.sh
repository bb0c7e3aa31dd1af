#!/usr/bin/env bash
# A local Citus cluster for Memoir's tests and benchmarks: a coordinator and two workers, three clusters of the
# machine's PostgreSQL 15 on their own ports, each with citus preloaded and pgvector.
#
#   scripts/citus.sh build    builds and installs Citus once (prints nothing on standard output)
#   scripts/citus.sh start    build, then create (first time) and start the three clusters, register the workers,
#                             create the database memoir_citus with citus and vector, and print its JDBC URL
#   scripts/citus.sh stop     stops the three clusters
#   scripts/citus.sh remove   stops them and deletes their data directories
#   scripts/citus.sh archive  prints where the source archive is looked for; exits 2 with where Citus comes from
#                             when it is not there
#   scripts/citus.sh url      prints the coordinator's JDBC URL (user memoir, password memoir; the superuser postgres
#                             connects without a password)
#
# MEMOIR_CITUS_DB names another database than memoir_citus for start and url (the scale benchmark's, for one), made
# the same way on the same three clusters.
#
# Citus is not among Debian's packages. Its source is read from ../shared/vendor/citus-13.2.2.tar.gz beside the
# repository (MEMOIR_CITUS_ARCHIVE overrides): Citus 13.2.2, the last release for PostgreSQL 15, AGPL-3.0, unmodified.
# It is built against the machine's PostgreSQL 15 with one compatibility edit, applied only where the server headers
# declare have_createdb_privilege (PostgreSQL 15.20 exports it; Citus 13.2.2 also defines it for 15). The build-
# dependencies come from Debian. The build (about 6 minutes on 2 cores) is cached outside the repository, keyed by
# the version, in $MEMOIR_CACHE_DIR (default ~/.cache/memoir), and installed from there into PostgreSQL's
# directories (make install) whenever they lack it. The clusters' data lives in /var/lib/postgresql/memoir-citus-clusters
# (MEMOIR_CITUS_DATA overrides; the postgres user must be able to reach it).
#
# Memoir talks to Citus only as a PostgreSQL server; the distribution step that makes Memoir's schema distributed is
# scripts/citus-distribute.sql (docs/scaling.md).
# Progress goes to standard error.
set -euo pipefail

VERSION=13.2.2
PG_MAJOR=15
PG_BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
PG_CONFIG="$PG_BIN/pg_config"
REPO="$(cd "$(dirname "$0")/.." && pwd)"
ARCHIVE="${MEMOIR_CITUS_ARCHIVE:-$REPO/../shared/vendor/citus-$VERSION.tar.gz}"
CACHE_ROOT="${MEMOIR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/memoir}"
BUILD_DIR="$CACHE_ROOT/citus-$VERSION-pg$PG_MAJOR"
CLUSTERS="${MEMOIR_CITUS_DATA:-/var/lib/postgresql/memoir-citus-clusters}"
PORTS=("${MEMOIR_CITUS_PORT:-9700}" "$(( ${MEMOIR_CITUS_PORT:-9700} + 1 ))" "$(( ${MEMOIR_CITUS_PORT:-9700} + 2 ))")
NAMES=(coordinator worker1 worker2)
DB="${MEMOIR_CITUS_DB:-memoir_citus}"
DB_USER="${MEMOIR_DB_USER:-memoir}"
DB_PASSWORD="${MEMOIR_DB_PASSWORD:-memoir}"

say() { echo "[citus] $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

no_archive() {
  cat >&2 <<MSG
[citus] The Citus source archive is not at $ARCHIVE.
[citus] Memoir's Citus tests build Citus $VERSION (the last release for PostgreSQL $PG_MAJOR) from that archive, which
[citus] the project keeps in shared/vendor beside the repository. Elsewhere, get Citus from its own sources:
[citus]   - packages for Debian, Ubuntu and Red Hat from Citus Data's own repository:
[citus]     https://github.com/citusdata/citus#getting-started (install.citusdata.com)
[citus]   - Docker images: citusdata/citus on Docker Hub, https://hub.docker.com/r/citusdata/citus
[citus]   - source: https://github.com/citusdata/citus/archive/refs/tags/v$VERSION.tar.gz
[citus] then point MEMOIR_CITUS_ARCHIVE at a source archive, or MEMOIR_TEST_CITUS_URL at a coordinator that runs
[citus] Citus with pgvector. ./scripts/test.sh leaves the Citus tests out only when asked: MEMOIR_TEST_WITHOUT_CITUS=1.
MSG
  exit 2
}

installed() {
  [ -f "$($PG_CONFIG --pkglibdir)/citus.so" ] && [ -f "$($PG_CONFIG --sharedir)/extension/citus.control" ] \
    && grep -q "default_version = '13.2" "$($PG_CONFIG --sharedir)/extension/citus.control"
}

built() { [ -f "$BUILD_DIR/.built" ]; }

apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    say "building Citus needs: ${missing[*]}"
    exit 1
  fi
  say "installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

build() {
  if built && installed; then return 0; fi
  mkdir -p "$CACHE_ROOT"
  # One build at a time: a second caller waits for the first and then uses its result.
  exec 8>"$CACHE_ROOT/.citus-$VERSION.lock"
  flock 8
  if built && installed; then return 0; fi
  apt_install "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" build-essential liblz4-dev libzstd-dev \
    libcurl4-openssl-dev libkrb5-dev
  if ! built; then
    [ -f "$ARCHIVE" ] || no_archive
    # Built where it stays: configure records the tree's absolute path, which make install uses later.
    rm -rf "$BUILD_DIR"
    mkdir -p "$BUILD_DIR"
    tar -xzf "$ARCHIVE" -C "$BUILD_DIR" --strip-components=1
    local src="$BUILD_DIR"
    # PostgreSQL 15.20 exports have_createdb_privilege (commands/dbcommands.h); Citus 13.2.2 defines it as a static
    # function for versions before 16. Remove Citus's definition only where the server headers declare it.
    if grep -q 'have_createdb_privilege' "$($PG_CONFIG --includedir-server)/commands/dbcommands.h"; then
      say "the server headers declare have_createdb_privilege: removing Citus's own definition"
      python3 - "$src/src/include/pg_version_compat.h" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
pattern = re.compile(r'static inline bool\s*\n\s*have_createdb_privilege\(void\)\s*\n\{.*?\n\}\n', re.S)
new, n = pattern.subn('/* have_createdb_privilege: exported by this PostgreSQL 15 (commands/dbcommands.h) */\n', text)
if n != 1:
    sys.exit("pg_version_compat.h: expected one definition of have_createdb_privilege, found %d" % n)
open(path, 'w').write(new)
PY
    fi
    say "building Citus $VERSION (about 6 minutes on 2 cores; cached in $BUILD_DIR)"
    (cd "$src" && ./configure PG_CONFIG="$PG_CONFIG" >"$src/configure.log" 2>&1 \
      || { tail -n 30 "$src/configure.log" >&2; exit 1; })
    (cd "$src" && make -s -j"$(nproc)" >"$src/make.log" 2>&1 || { tail -n 40 "$src/make.log" >&2; exit 1; })
    touch "$BUILD_DIR/.built"
  fi
  if ! installed; then
    say "installing Citus $VERSION into PostgreSQL $PG_MAJOR"
    (cd "$BUILD_DIR" && as_root make -s install >/dev/null)
  fi
}

pgvector_installed() { [ -f "$($PG_CONFIG --sharedir)/extension/vector.control" ]; }

psql_at() { # psql_at PORT DB SQL...
  local port="$1" db="$2"
  shift 2
  as_postgres env PGOPTIONS=--client-min-messages=warning "$PG_BIN/psql" -h 127.0.0.1 -p "$port" -d "$db" \
    -v ON_ERROR_STOP=1 -qtAX "$@"
}

start() {
  build
  if ! pgvector_installed; then
    say "pgvector is missing: running scripts/local-postgres.sh"
    "$REPO/scripts/local-postgres.sh" >&2
  fi
  as_root mkdir -p "$CLUSTERS"
  as_root chown postgres:postgres "$CLUSTERS"
  local i
  for i in 0 1 2; do
    local dir="$CLUSTERS/${NAMES[$i]}" port="${PORTS[$i]}"
    if [ ! -f "$dir/PG_VERSION" ]; then
      say "creating ${NAMES[$i]} on port $port"
      as_postgres "$PG_BIN/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
      cat <<CONF | as_postgres tee -a "$dir/postgresql.conf" >/dev/null
# Memoir's local Citus cluster (scripts/citus.sh)
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$CLUSTERS'
shared_preload_libraries = 'citus'
max_connections = 200
shared_buffers = 128MB
wal_level = logical
max_worker_processes = 16
CONF
    fi
    if ! as_postgres "$PG_BIN/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      say "starting ${NAMES[$i]} on port $port"
      as_postgres "$PG_BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >/dev/null
    fi
  done
  for i in 0 1 2; do
    local port="${PORTS[$i]}"
    if [ "$(psql_at "$port" postgres -c "select 1 from pg_roles where rolname = '$DB_USER'")" != "1" ]; then
      psql_at "$port" postgres -c "create role $DB_USER login password '$DB_PASSWORD'"
    fi
    if [ "$(psql_at "$port" postgres -c "select 1 from pg_database where datname = '$DB'")" != "1" ]; then
      psql_at "$port" postgres -c "create database $DB owner $DB_USER"
    fi
    # Once the workers are registered, Citus refuses extension commands on them: each extension is created once.
    if [ "$(psql_at "$port" "$DB" -c "select 1 from pg_extension where extname = 'citus'")" != "1" ]; then
      psql_at "$port" "$DB" -c "create extension citus"
    fi
  done
  local coord="${PORTS[0]}"
  psql_at "$coord" "$DB" -c "select citus_set_coordinator_host('127.0.0.1', $coord)" >/dev/null
  for i in 1 2; do
    if [ "$(psql_at "$coord" "$DB" -c "select 1 from pg_dist_node where nodeport = ${PORTS[$i]}")" != "1" ]; then
      say "registering ${NAMES[$i]}"
      psql_at "$coord" "$DB" -c "select citus_add_node('127.0.0.1', ${PORTS[$i]})" >/dev/null
    fi
  done
  # pgvector, created once on the coordinator, which creates it on the workers, and owned by Memoir's user: Memoir's
  # V3 migration runs "create extension if not exists vector", for which Citus registers the extension on the workers
  # again, and only the extension's owner may (docs/scaling.md). pgvector is not a trusted extension, so the user is a
  # superuser for that one statement.
  if [ "$(psql_at "$coord" "$DB" -c "select 1 from pg_extension where extname = 'vector'")" != "1" ]; then
    say "creating pgvector, owned by $DB_USER"
    psql_at "$coord" "$DB" -c "alter role $DB_USER superuser" -c "set role $DB_USER" -c "create extension vector" \
      -c "reset role" -c "alter role $DB_USER nosuperuser"
  fi
  say "ready: coordinator 127.0.0.1:${PORTS[0]}, workers ${PORTS[1]} and ${PORTS[2]}, database $DB"
  url
}

stop() {
  local i
  for i in 2 1 0; do
    local dir="$CLUSTERS/${NAMES[$i]}"
    if [ -f "$dir/PG_VERSION" ] && as_postgres "$PG_BIN/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      say "stopping ${NAMES[$i]}"
      as_postgres "$PG_BIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
    fi
  done
}

# Memoir connects as $DB_USER (password $DB_PASSWORD); the distribution step runs as the superuser postgres (trust).
url() { echo "jdbc:postgresql://127.0.0.1:${PORTS[0]}/$DB"; }

case "${1:-start}" in
  build) build ;;
  start) start ;;
  stop) stop ;;
  remove) stop; say "removing $CLUSTERS"; as_root rm -rf "$CLUSTERS" ;;
  url) url ;;
  archive) [ -f "$ARCHIVE" ] || no_archive; echo "$ARCHIVE" ;;
  *) echo "usage: $0 [build|start|stop|remove|url|archive]" >&2; exit 64 ;;
esac
