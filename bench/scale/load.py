#!/usr/bin/env python3
"""Bulk-loads synthetic memories into memory_records of an already migrated Memoir database.

The rows go in through psql's \\copy fed by this generator over a pipe (nothing is written to disk). The HNSW
and GIN indexes are dropped before the load and created again afterwards with the migrations' definitions
(V4, V16), then the table is analysed. Timings and sizes are printed and written to out/load-<db>.json; the
users (ids, sizes, topics) to out/manifest-<db>.json, which measure.py reads.

    python3 bench/scale/load.py --tenant-id UUID [--total 1000000] [--seed 42] [--db-url postgresql://...]
"""

import argparse
import json
import os
import subprocess
import sys
import time

import datagen

HNSW = "create index memory_records_embedding_idx on memory_records using hnsw (embedding vector_cosine_ops)"  # V4
GIN = ("create index memory_records_user_search_idx on memory_records "
       "using gin (tenant_id, user_id, search_vector)")  # V23 (btree_gin)
DROP_INDEXES = ("drop index if exists memory_records_embedding_idx; "
                "drop index if exists memory_records_search_idx; "  # before V23
                "drop index if exists memory_records_user_search_idx")


def psql(url, sql, capture=True):
    """Runs SQL (one or more statements) in one psql session, stops at the first error."""
    # One -c per statement: a Citus coordinator refuses DDL sent to it as several commands in one string.
    commands = [arg for statement in sql.split(";") if statement.strip() for arg in ("-c", statement)]
    res = subprocess.run(["psql", url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", *commands],
                         capture_output=capture, text=True)
    if res.returncode != 0:
        sys.exit(f"psql failed ({res.returncode}): {sql[:200]}\n{res.stderr}")
    return res.stdout.strip() if capture else ""


def timed(label, fn, results):
    t = time.monotonic()
    print(f"[{time.strftime('%H:%M:%S')}] {label} ...", flush=True)
    out = fn()
    dt = time.monotonic() - t
    results[label] = round(dt, 1)
    print(f"[{time.strftime('%H:%M:%S')}] {label}: {dt:.1f} s", flush=True)
    return out


def build_indexes(url, mwm, results):
    settings = f"set maintenance_work_mem = '{mwm}';"
    results["max_parallel_maintenance_workers"] = psql(url, "show max_parallel_maintenance_workers")
    print("max_parallel_maintenance_workers =", results["max_parallel_maintenance_workers"], flush=True)
    timed("gin_index_build_s", lambda: psql(url, settings + GIN), results)
    timed("hnsw_index_build_s", lambda: psql(url, settings + HNSW), results)
    timed("analyze_s", lambda: psql(url, "analyze memory_records"), results)


def sizes(url):
    rows = psql(url, """
        select c.relname, pg_relation_size(c.oid) from pg_class c
        where c.relname in ('memory_records', 'memory_records_pkey', 'memory_records_dedup_key_key',
                            'memory_records_user_kind_idx', 'memory_records_user_time_idx',
                            'memory_records_embedding_idx', 'memory_records_search_idx', 'memory_records_user_search_idx')
        union all
        select 'toast', coalesce(pg_relation_size(reltoastrelid), 0) from pg_class where relname = 'memory_records'
        union all
        select 'total (table + toast + indexes)', pg_total_relation_size('memory_records')
        union all
        select 'database', pg_database_size(current_database())""")
    return {name: int(size) for name, size in (line.split("|") for line in rows.splitlines())}


def citus_sizes(url):
    """On Citus the coordinator holds empty shells: the shards' tables and indexes, per worker, and how many HNSW
    indexes (one per partition of each shard) each worker holds."""
    rows = psql(url, """
        select nodeport, result from run_command_on_workers($$
            select json_build_object(
                'hnsw_indexes', count(*) filter (where a.amname = 'hnsw'),
                'hnsw_indexes_with_rows', count(*) filter (where a.amname = 'hnsw' and c.relpages > 1),
                'hnsw_bytes', coalesce(sum(pg_relation_size(c.oid)) filter (where a.amname = 'hnsw'), 0),
                'gin_bytes', coalesce(sum(pg_relation_size(c.oid)) filter (where a.amname = 'gin'), 0),
                'memory_records_bytes', (select coalesce(sum(pg_total_relation_size(t.oid)), 0) from pg_class t
                    where t.relkind = 'r' and t.relname like 'memory_records%'),
                'database', pg_database_size(current_database()))
            from pg_class c join pg_am a on a.oid = c.relam
            where c.relkind = 'i' and c.relname like 'memory_records%'$$)""")
    out = {}
    for line in rows.splitlines():
        port, result = line.split("|", 1)
        out[f"worker {port}"] = json.loads(result)
    out["citus_total_relation_size memory_records"] = int(psql(
        url, "select citus_total_relation_size('memory_records')"))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--total", type=int, default=1_000_000, help="memories in the tenant (default 1,000,000)")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--tenant-id", required=True, help="a tenant created through POST /admin/tenants")
    p.add_argument("--db-url", default=os.environ.get("SCALE_DB_URL",
                                                      "postgresql://memoir:memoir@127.0.0.1:5432/memoir_scale"))
    p.add_argument("--anchors", help="out/anchors-<db>.tsv from anchors.py: vectors around the service model's "
                   "embeddings of the topics (default: purely synthetic vectors)")
    p.add_argument("--maintenance-work-mem", default="6GB")
    p.add_argument("--replace", action="store_true", help="empty memory_records first if it holds rows")
    p.add_argument("--indexes-only", action="store_true", help="skip the load; (re)build the two indexes")
    p.add_argument("--out-dir", default=os.path.join(datagen.HERE, "out"))
    p.add_argument("--citus", action="store_true", help="the database is a Citus coordinator: sizes per worker")
    a = p.parse_args()

    db = a.db_url.rsplit("/", 1)[-1].split("?")[0]
    os.makedirs(a.out_dir, exist_ok=True)
    results = {"db": db, "total": a.total, "seed": a.seed, "tenant_id": a.tenant_id,
               "vectors": "anchored" if a.anchors else "synthetic"}
    user_list = datagen.users(a.total, a.seed)
    with open(os.path.join(a.out_dir, f"manifest-{db}.json"), "w") as f:
        json.dump({"db": db, "total": a.total, "seed": a.seed, "tenant_id": a.tenant_id,
                   "anchors": os.path.abspath(a.anchors) if a.anchors else None,
                   "users": [{"id": u, "class": c, "size": s, "topics": t, "weights": w}
                             for u, c, s, t, w in user_list]}, f)
    by_class = {}
    for _u, c, s, _t, _w in user_list:
        by_class.setdefault(c, []).append(s)
    results["users"] = {c: {"users": len(v), "memories": sum(v), "min": min(v), "max": max(v)}
                        for c, v in by_class.items()}
    print(json.dumps(results["users"]), flush=True)

    if a.indexes_only:
        psql(a.db_url, DROP_INDEXES)
    else:
        existing = int(psql(a.db_url, "select count(*) from memory_records"))
        if existing:
            if not a.replace:
                sys.exit(f"memory_records already holds {existing} rows; use --replace to empty it first")
            # Revisions follow their memory by a delete trigger (V27), which TRUNCATE does not fire.
            psql(a.db_url, "truncate memory_records, memory_revisions cascade")
        psql(a.db_url, DROP_INDEXES)
        model = datagen.Model(a.seed, a.anchors)

        def load():
            proc = subprocess.Popen(["psql", a.db_url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                                     f"\\copy memory_records ({datagen.COPY_COLUMNS}) from pstdin"],
                                    stdin=subprocess.PIPE)
            n = datagen.copy_rows(model, user_list, a.tenant_id, a.seed, proc.stdin)
            proc.stdin.close()
            if proc.wait() != 0:
                sys.exit("COPY failed")
            return n

        results["rows"] = timed("copy_load_s", load, results)
        timed("vacuum_analyze_s", lambda: psql(a.db_url, "vacuum analyze memory_records"), results)
    build_indexes(a.db_url, a.maintenance_work_mem, results)
    results["rows_in_table"] = int(psql(a.db_url, "select count(*) from memory_records"))
    if a.citus:
        results["sizes_bytes"] = citus_sizes(a.db_url)
        print(json.dumps(results["sizes_bytes"], indent=1))
    else:
        results["sizes_bytes"] = sizes(a.db_url)
        for name, size in results["sizes_bytes"].items():
            print(f"  {name:40s} {size / 2**20:10.1f} MiB")
    path = os.path.join(a.out_dir, f"load-{db}{'-indexes' if a.indexes_only else ''}.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
    print("wrote", path)


if __name__ == "__main__":
    main()
