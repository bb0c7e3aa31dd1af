-- Queries are parsed with the English configuration, which stems seven month names (January -> januari,
-- September -> septemb, ...), but the month a memory records was indexed with the simple configuration, so a
-- question naming one of those months never matched it. The month and year are indexed with the English
-- configuration now, like the text; the generated column is rebuilt (every row re-indexed) with its GIN index.
drop index memory_records_search_idx;
alter table memory_records drop column search_vector;

create or replace function memory_search_vector(topic text, body text, occurred timestamptz) returns tsvector
    language sql immutable parallel safe as $$
    select setweight(to_tsvector('english'::regconfig, coalesce(topic, '')), 'A')
        || setweight(to_tsvector('english'::regconfig, body), 'B')
        || setweight(to_tsvector('english'::regconfig,
               coalesce(to_char(occurred at time zone 'UTC', 'FMMonth YYYY'), '')), 'D')
$$;

alter table memory_records add column search_vector tsvector
    generated always as (memory_search_vector(topic, text, occurred_from)) stored;

create index memory_records_search_idx on memory_records using gin (search_vector);
