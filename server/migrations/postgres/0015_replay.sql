-- Any quote replayed as the customer saw it. Expand only: a server of the version
-- before ignores the new columns and table and keeps working.
--
-- What each event carried (a step's answers as sent, write-only answers masked; a pet's position;
-- a language), so the replay can run the quote's events again. Null for events that carry
-- nothing, and for transitions recorded before this migration.
alter table step_transitions add column input text;

-- The document the quote started with, before its first event (its experiments' variations, a
-- tracking token; a quote made from another's answers, those answers). Null for quotes made
-- before this migration.
alter table quotes add column opening text;

-- Every definitions version a server has run, so an old quote still replays on the definitions
-- it was priced and shown with after the journey changes. `files`: the version's files as a JSON
-- list of [path, text], gzipped and base64-encoded (about a fifth of their size).
create table definitions_versions (
    version text primary key,
    created_at text not null,
    files text not null
);
