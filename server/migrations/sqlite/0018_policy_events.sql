-- Policy events: what the insurer's systems must act on (a policy bought, the pet
-- portal registered, preferences changed, a policy cancelled, a subject's erasure), written in
-- the same transaction as what they record, then delivered as signed webhooks (Standard
-- Webhooks) by any server's worker: at least once, retried with backoff, the same id and body
-- every time, and in order within a stream (a purchase's events, one after the other).
create table policy_events (
    seq integer primary key autoincrement,  -- the order events were written
    id text not null unique,             -- the webhook-id: msg_ and 128 random bits
    stream text not null,                -- what the order holds within: the purchase's id
    type text not null,                  -- policy.bought, portal.registered, ...
    body text not null,                  -- the JSON sent, signed afresh on every attempt
    created_at text not null,            -- RFC 3339, UTC (as every timestamp here)
    attempts bigint not null default 0,
    next_attempt_at text not null,       -- the worker takes events due at or before now
    locked_until text,                   -- a worker's claim; another worker leaves the event alone until then
    delivered_at text,
    last_error text                      -- the last attempt's failure, bounded, for `pawpath events list`
);

create index policy_events_waiting on policy_events (delivered_at, next_attempt_at);
create index policy_events_stream on policy_events (stream, seq);
