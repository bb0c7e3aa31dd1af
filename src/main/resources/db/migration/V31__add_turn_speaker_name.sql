-- Who said a turn, as an imported chat log names them ("Caroline"): a dialogue between two people, or an export
-- that names the user, is remembered under their names, so that a question naming a person finds what they said.
alter table turns add column speaker_name text;
