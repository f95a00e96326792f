-- A quote is the answers document of one customer's journey, owned by a browser session.
create table quotes (
    id text primary key,                 -- random, never shown to the customer
    quote_ref text not null unique,      -- the reference the customer sees (qidu)
    session_hash text not null unique,   -- sha-256 of the session cookie; the cookie itself is never stored
    brand text not null,
    channel text not null,
    journey text not null,
    definition_version text not null,    -- the definitions the quote last ran on
    lifecycle text not null,             -- active, purchased, expired or reset
    document text not null,              -- the answers, as JSON
    row_version bigint not null,         -- optimistic locking: every update checks and bumps it
    created_at text not null,            -- RFC 3339, UTC
    updated_at text not null
);

-- One row per event the engine handled (DESIGN.md principle 4).
create table step_transitions (
    id integer primary key autoincrement,
    quote_id text not null references quotes (id),
    created_at text not null,
    definition_version text not null,
    brand text not null,
    channel text not null,
    journey text not null,
    event text not null,
    from_step text not null,
    to_step text not null,
    outcome text not null,               -- moved, invalid, blocked, refused_by_guard, refused_by_lifecycle
    guards text not null,                -- JSON: [{guard, passed}]
    field_errors text not null,          -- JSON: [{field, key, params}]
    blocks text not null,                -- JSON: [{id, message, field}]
    duration_us bigint not null
);

create index step_transitions_quote on step_transitions (quote_id, id);
create index step_transitions_funnel on step_transitions (journey, brand, channel, created_at);
