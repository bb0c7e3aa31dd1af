-- Only a fact-bearing memory (conditional, topic, reflected, fact: MemoryKind.FACT_BEARING) supersedes another, so
-- only its deletion can leave a memory to reinstate (V34). Deleting any other kind skips the trigger's update: an
-- erasure deletes a user's history memories by the hundred, and on Citus each update a trigger runs on a shard is
-- planned as a distributed statement, about 6 ms apiece (docs/scale-benchmark.md).

drop trigger memory_records_reinstate_superseded on memory_records;

create trigger memory_records_reinstate_superseded after delete on memory_records
    for each row when (old.kind in ('conditional', 'topic', 'reflected', 'fact'))
    execute function memory_records_reinstate_superseded();
