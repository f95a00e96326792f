-- Each quote's history has a ceiling: the quote counts the transitions recorded for
-- it, in the same statement that records each, so the ceiling is checked on the row every request
-- reads anyway (no count of step_transitions on the hot path). Quotes made before count what they
-- have. Safe mid rolling deploy: a server of the version before neither reads nor writes it.
alter table quotes add column history bigint not null default 0;
update quotes set history = (select count(*) from step_transitions t where t.quote_id = quotes.id);
