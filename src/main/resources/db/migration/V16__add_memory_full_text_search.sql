-- Keyword search beside vector search: PostgreSQL keeps a full-text vector of every memory (its topic, its text
-- and the month and year it records) in a generated column, back-filled here for existing rows, on a GIN index.
-- The English configuration stems words and drops stop words; queries must use the same configuration.
create function memory_search_vector(topic text, body text, occurred timestamptz) returns tsvector
    language sql immutable parallel safe as $$
    select setweight(to_tsvector('english'::regconfig, coalesce(topic, '')), 'A')
        || setweight(to_tsvector('english'::regconfig, body), 'B')
        || setweight(to_tsvector('simple'::regconfig,
               coalesce(to_char(occurred at time zone 'UTC', 'FMMonth YYYY'), '')), 'D')
$$;

alter table memory_records add column search_vector tsvector
    generated always as (memory_search_vector(topic, text, occurred_from)) stored;

create index memory_records_search_idx on memory_records using gin (search_vector);
