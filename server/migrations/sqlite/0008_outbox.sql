-- The outbox (owner-payment.md §4 Confirmation): each email a purchase owes the customer is
-- written here in the purchase's own transaction, so it is never lost, and a background worker
-- delivers it over SMTP, retrying with backoff while the mail server is unreachable. One message
-- of each kind per purchase: the unique key makes a second write impossible.
create table outbox (
    id text primary key,                 -- also the Message-ID's local part
    purchase_id text not null references purchases (id),
    kind text not null,                  -- confirmation
    recipient text not null,
    sender_name text not null,           -- the brand, as the From line's name
    subject text not null,
    body_text text not null,
    body_html text not null,
    created_at text not null,            -- RFC 3339, UTC (as every timestamp here)
    requested_at text,                   -- when the confirmation page asked for it (/api/confirmationEmail)
    attempts bigint not null default 0,
    next_attempt_at text not null,       -- the worker takes rows due at or before now
    locked_until text,                   -- a worker's claim; another worker leaves the row alone until then
    sent_at text,
    last_error text,
    failed_at text,                      -- refused for good (the server said the address cannot be delivered to)
    unique (purchase_id, kind)
);

create index outbox_due on outbox (sent_at, next_attempt_at);
