-- The model that embedded each memory. Vectors of different models are not comparable: dense search reads only
-- the configured model's vectors, and a background job re-embeds the others. Memories stored before this
-- migration were embedded by the only model Memoir had then.
alter table memory_records add column embedding_model text not null default 'all-minilm-l6-v2';
alter table memory_records alter column embedding_model drop default;

