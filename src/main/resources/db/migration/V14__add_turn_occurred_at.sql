-- When a turn was said. Imported turns bring their own time; chatted turns take the server's. Turns stored
-- before this migration were stored as they were said, so their creation time is their time.
alter table turns add column occurred_at timestamptz;
update turns set occurred_at = created_at;
alter table turns alter column occurred_at set not null;
