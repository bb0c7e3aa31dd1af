-- The user turn an assistant reply answers. Concurrent chats in one session store their replies in the order the
-- model finishes, so "the turn before" is not the question; a reply names it. Imported turns have none.
alter table turns add column reply_to uuid references turns (id) on delete cascade;
create index turns_reply_to_idx on turns (reply_to) where reply_to is not null;
