-- Emails about a quote rather than a purchase (journey.md §2 Review "We'll email you a
-- reminder before your quote expires"; owner-payment.md §7 /api/sendquoteemail): the reminder
-- before a quote expires and the quote sent when the customer asks. The outbox takes them beside
-- the purchase emails, so they are delivered, retried and never lost the same way: a row names
-- its purchase or its quote. Expand only: a server of the version before keeps working.
alter table outbox alter column purchase_id drop not null;
alter table outbox add column quote_id text references quotes (id);
alter table outbox add constraint outbox_one_owner check ((purchase_id is null) <> (quote_id is null));
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
