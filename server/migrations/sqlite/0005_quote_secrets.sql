-- What a customer gives that is never kept in the quote document (write-only answers: a bank
-- account number), encrypted (AES-256-GCM, the key from configuration, bound to quote and field).
-- Written in the same transaction as the quote update that took it.
create table quote_secrets (
    quote_id text not null references quotes (id),
    field text not null,                 -- JSON pointer into the document, e.g. /payment/account_number
    ciphertext text not null,            -- v1:base64(nonce || ciphertext)
    updated_at text not null,
    primary key (quote_id, field)
);
