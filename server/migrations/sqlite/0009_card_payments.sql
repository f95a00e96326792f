-- Card payments (owner-payment.md §3 payment_method CC): for brands that take cards, a
-- purchase paid by card has this row instead of a Direct Debit mandate. Only what a receipt shows
-- is kept: the provider's references, the name, the issuer code, the last four digits and the
-- expiry. The card number and CVC never reach pawpath (they go from the browser to the provider).
create table card_payments (
    purchase_id text primary key references purchases (id),
    provider text not null,               -- which payment provider took it (test: the local one)
    charge_reference text not null unique,-- the provider's reference for the first payment
    amount text not null,                 -- the first payment, to the penny
    currency text not null,               -- ISO 4217
    card_name text not null,
    issuer text not null,                 -- MCDEBIT, UKE, JCB, AMEX, VISA or MAESTRO
    last4 text not null,
    expiry text not null,                 -- MM/YY
    created_at text not null
);
