-- A memory longer than one passage (memoir.embedding.passage-tokens) is also embedded passage by passage, so that
-- what a long turn says at its end is found as surely as what it says first: dense search scores a memory by its
-- best passage. Passages live beside their memory in the same 16 hash partitions by (tenant_id, user_id), each
-- with its own HNSW graph, and go with it: the foreign key names the memory's whole key (V27).

create table memory_passages (
    memory_id       uuid        not null,
    tenant_id       uuid        not null,
    user_id         text        not null,
    position        int         not null,
    start_char      int         not null,
    end_char        int         not null,
    embedding       vector(${embeddingDimensions}) not null,
    embedding_model text        not null,
    primary key (memory_id, position, tenant_id, user_id),
    foreign key (memory_id, tenant_id, user_id) references memory_records (id, tenant_id, user_id) on delete cascade
) partition by hash (tenant_id, user_id);

do $$
begin
    for remainder in 0..15 loop
        execute format('create table memory_passages_p%s partition of memory_passages for values with (modulus 16, remainder %s)',
                       lpad(remainder::text, 2, '0'), remainder);
    end loop;
end;
$$;

create index memory_passages_embedding_idx on memory_passages using hnsw (embedding vector_cosine_ops);
create index memory_passages_user_idx on memory_passages (tenant_id, user_id, memory_id);
