-- Emails about a quote rather than a purchase (journey.md §2 Review "We'll email you a
-- reminder before your quote expires"; owner-payment.md §7 /api/sendquoteemail): the reminder
-- before a quote expires and the quote sent when the customer asks. The outbox takes them beside
-- the purchase emails, so they are delivered, retried and never lost the same way: a row names
-- its purchase or its quote. SQLite cannot drop a NOT NULL, so the table is built again.
create table outbox_new (
    id text primary key,
    purchase_id text references purchases (id),
    quote_id text references quotes (id),
    kind text not null,                  -- confirmation, rescue_confirmation, quote_reminder, quote
    recipient text not null,
    sender_name text not null,
    subject text not null,
    body_text text not null,
    body_html text not null,
    created_at text not null,
    requested_at text,
    attempts bigint not null default 0,
    next_attempt_at text not null,
    locked_until text,
    sent_at text,
    last_error text,
    failed_at text,
    unique (purchase_id, kind),
    check ((purchase_id is null) <> (quote_id is null))
);

insert into outbox_new (id, purchase_id, kind, recipient, sender_name, subject, body_text, body_html,
                        created_at, requested_at, attempts, next_attempt_at, locked_until, sent_at,
                        last_error, failed_at)
select id, purchase_id, kind, recipient, sender_name, subject, body_text, body_html,
       created_at, requested_at, attempts, next_attempt_at, locked_until, sent_at,
       last_error, failed_at
from outbox;

drop table outbox;
alter table outbox_new rename to outbox;
create index outbox_due on outbox (sent_at, next_attempt_at);
create index outbox_quote on outbox (quote_id, kind);

-- One reminder per quote, decided once (by whichever server claims it first): sent, or why not
-- (the customer opted out, no email address, never reached review). The primary key makes a
-- second decision impossible, so no customer is reminded twice.
create table quote_reminders (
    quote_id text primary key references quotes (id),
    decided_at text not null,
    outcome text not null
);

-- The reminder job's question: active quotes created in a window of days.
create index quotes_active_created on quotes (created_at) where lifecycle = 'active';
