-- Standing instructions (MemoryKind.INSTRUCTION) are fact-bearing: a later one supersedes an earlier one, so deleting
-- one can leave a memory to reinstate, as for the other fact-bearing kinds (V47).

drop trigger memory_records_reinstate_superseded on memory_records;

create trigger memory_records_reinstate_superseded after delete on memory_records
    for each row when (old.kind in ('conditional', 'topic', 'reflected', 'fact', 'instruction'))
    execute function memory_records_reinstate_superseded();
