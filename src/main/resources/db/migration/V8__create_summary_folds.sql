-- Closed sessions waiting to be folded into their user's recursive summary, in order of closing.
create table summary_folds (
    session_id  uuid primary key references sessions (id) on delete cascade,
    tenant_id   uuid not null,
    user_id     text not null,
    closed_at   timestamptz not null,
    folded_at   timestamptz
);

create index summary_folds_pending_idx on summary_folds (tenant_id, user_id, closed_at) where folded_at is null;
