-- A purchase: at most one per quote, whatever arrives (a double click, a retry, two tabs, fifty
-- identical requests at once): the unique quote_id makes the database the judge. The policies, the
-- Direct Debit mandate and its collections are written in the same transaction.
create table purchases (
    id text primary key,
    quote_id text not null unique references quotes (id),
    idempotency_key text not null unique,
    created_at text not null,            -- RFC 3339, UTC
    payment_frequency text not null,     -- MP or AP
    payment_day bigint not null,
    cover_start text not null            -- YYYY-MM-DD
);

create table policies (
    policy_number text primary key,      -- the brand's prefix, e.g. PETPS0012345
    purchase_id text not null references purchases (id),
    pet_original_id bigint not null,
    pet_name text not null,
    product_code text not null,
    monthly_premium text not null,       -- pounds, to the penny
    annual_premium text not null,
    start_date text not null
);

create table mandates (
    purchase_id text primary key references purchases (id),
    reference text not null unique,      -- the Direct Debit reference on the customer's statement
    account_name text not null,
    sort_code text not null,
    account_number_ciphertext text not null,  -- as in quote_secrets (bound to the quote)
    account_number_masked text not null,
    created_at text not null
);

create table collections (
    purchase_id text not null references purchases (id),
    due_date text not null,
    amount text not null,
    payments bigint not null
);

create index collections_purchase on collections (purchase_id);
