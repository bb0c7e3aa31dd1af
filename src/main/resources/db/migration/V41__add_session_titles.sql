-- A session may carry a title: an imported conversation keeps the one its assistant gave it (docs/api.md,
-- "Importing a ChatGPT or Claude export"). Null for every session started through the API.
alter table sessions add column title text;
