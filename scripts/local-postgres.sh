#!/usr/bin/env bash
# Installs and starts PostgreSQL 15 with pgvector on a Debian machine without Docker, and creates the
# databases Memoir uses (memoir for running, memoir_test for the test suite). Safe to run again: every step
# checks first and does nothing when its work is already done.
#
# pgvector is not among bookworm's binary packages, but Debian ships its source, which builds against
# postgresql-server-dev-15 in seconds. The newest source (suite sid) is used: releases before 0.8.3 have a buffer
# overflow in parallel HNSW builds (fixed in 0.8.2) and can corrupt an HNSW index during vacuum (fixed in 0.8.3).
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-15}"
DB_USER="${MEMOIR_DB_USER:-memoir}"
DB_PASSWORD="${MEMOIR_DB_PASSWORD:-memoir}"
DATABASES="${MEMOIR_DATABASES:-memoir memoir_test}"
PGVECTOR_MIN="${PGVECTOR_MIN:-0.8.3}"
PGVECTOR_SUITES="${PGVECTOR_SUITES:-sid trixie}"

log() { echo "[local-postgres] $*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

psql_super() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- env PGOPTIONS=--client-min-messages=warning psql -v ON_ERROR_STOP=1 -qtAX "$@"
  else
    sudo -u postgres env PGOPTIONS=--client-min-messages=warning psql -v ON_ERROR_STOP=1 -qtAX "$@"
  fi
}

apt_updated=0
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$apt_updated" -eq 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
  log "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

install_postgres() {
  apt_install "postgresql-${PG_MAJOR}" "postgresql-server-dev-${PG_MAJOR}" build-essential dpkg-dev
}

installed_pgvector_version() {
  local control
  control="$(/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config --sharedir)/extension/vector.control"
  [ -f "$control" ] && sed -n "s/^default_version *= *'\\(.*\\)'/\\1/p" "$control"
}

version_at_least() { # version_at_least HAVE WANT
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

install_pgvector() {
  local have
  have="$(installed_pgvector_version || true)"
  if [ -n "$have" ] && version_at_least "$have" "$PGVECTOR_MIN"; then
    log "pgvector ${have} already installed"
    return 0
  fi
  [ -n "$have" ] && log "pgvector ${have} is older than ${PGVECTOR_MIN}: rebuilding"
  local src_list=/etc/apt/sources.list.d/memoir-pgvector-src.sources
  if [ ! -f "$src_list" ] || ! grep -qx "Suites: ${PGVECTOR_SUITES}" "$src_list"; then
    log "adding Debian source entries (${PGVECTOR_SUITES}) for pgvector"
    as_root tee "$src_list" >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: ${PGVECTOR_SUITES}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt_updated=0
  fi
  if [ "$apt_updated" -eq 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
  local work version fetched=""
  work="$(mktemp -d)"
  # Newest first; a mirror can list a version in its index whose files it does not serve yet.
  for version in $(apt-cache showsrc pgvector | awk '/^Version:/ {print $2}' | sort -rV | uniq); do
    if (cd "$work" && apt-get source --download-only "pgvector=${version}" >/dev/null 2>&1); then
      fetched="$version"
      break
    fi
    log "pgvector ${version} is listed but its source could not be downloaded; trying an older one"
    rm -f "$work"/*
  done
  if [ -z "$fetched" ]; then
    log "no pgvector source package could be downloaded"
    exit 1
  fi
  log "building pgvector ${fetched} from Debian's source package in ${work}"
  (
    cd "$work"
    dpkg-source --no-check -x pgvector_*.dsc src >/dev/null
    cd src
    make -s PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" >/dev/null
    as_root make -s install PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" >/dev/null
  )
  rm -rf "$work"
  have="$(installed_pgvector_version || true)"
  if ! version_at_least "${have:-0}" "$PGVECTOR_MIN"; then
    log "WARNING: only pgvector ${have:-none} could be built; ${PGVECTOR_MIN} or newer is recommended."
    log "WARNING: parallel HNSW builds are switched off in Memoir's databases to avoid the overflow fixed in 0.8.2."
  fi
  log "pgvector ${have} installed"
}

start_cluster() {
  if ! pg_lsclusters -h 2>/dev/null | grep -q "^${PG_MAJOR} "; then
    log "creating cluster ${PG_MAJOR}/main"
    as_root pg_createcluster "${PG_MAJOR}" main >/dev/null
  fi
  if ! pg_lsclusters -h | awk -v v="$PG_MAJOR" '$1==v && $2=="main" {print $4}' | grep -q online; then
    log "starting cluster ${PG_MAJOR}/main"
    as_root pg_ctlcluster --skip-systemctl-redirect "${PG_MAJOR}" main start
  fi
}

create_databases() {
  if [ "$(psql_super -c "select 1 from pg_roles where rolname = '${DB_USER}'")" != "1" ]; then
    log "creating role ${DB_USER}"
    psql_super -c "create role ${DB_USER} login password '${DB_PASSWORD}'"
  fi
  for db in $DATABASES; do
    if [ "$(psql_super -c "select 1 from pg_database where datname = '${db}'")" != "1" ]; then
      log "creating database ${db}"
      psql_super -c "create database ${db} owner ${DB_USER}"
    fi
    # pgvector is not a trusted extension: a superuser creates it, the service's migrations then find it.
    psql_super -d "$db" -c "create extension if not exists vector"
    # A database created under an older pgvector keeps that version until it is updated.
    psql_super -d "$db" -c "alter extension vector update"
    if ! version_at_least "$(installed_pgvector_version)" 0.8.2; then
      psql_super -c "alter database ${db} set max_parallel_maintenance_workers = 0"
    else
      psql_super -c "alter database ${db} reset max_parallel_maintenance_workers"
    fi
  done
}

install_postgres
install_pgvector
start_cluster
create_databases
log "ready: postgresql://${DB_USER}:${DB_PASSWORD}@127.0.0.1:5432/{$(echo "$DATABASES" | tr ' ' ',')}"
