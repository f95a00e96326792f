-- Each quote's save allowance, kept with the quote (a token bucket: how many saves it may make
-- now, and when that was worked out), so a new session or a second server gives nothing more.
create table quote_pace (
    quote_id text primary key references quotes (id),
    tokens real not null,
    at_ms integer not null
);
