-- Card payment attempts: a card payer's purchase may wait on the customer's bank
-- (3-D Secure) between the request that began it and the one (or the provider's webhook) that
-- ends it. Each attempt is written before the provider is asked, so an answer lost on the way
-- (a timeout) is asked for again with the same idempotency key, never made twice; and it holds
-- what the purchase needs to complete without the customer's browser: the purchase's key and
-- the hash of the session the purchase moves the quote to.
create table card_attempts (
    quote_id text not null,
    attempt bigint not null,             -- 1, 2, ... a new one after a decline or a failed challenge
    idempotency_key text not null,       -- the purchase request's key (the page's, per attempt)
    session_hash text not null,          -- the session the quote moves to when bought
    payment_id text,                     -- the provider's payment, once it has answered
    outcome text not null default 'open',-- open, failed or paid
    created_at text not null,            -- RFC 3339, UTC
    primary key (quote_id, attempt)
);

create index card_attempts_payment on card_attempts (payment_id);
