-- pgvector is not a trusted extension: on a self-managed server a superuser creates it first
-- (scripts/local-postgres.sh does); this statement then finds it and does nothing.
create extension if not exists vector;
