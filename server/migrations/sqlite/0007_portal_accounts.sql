-- Pet portal accounts (owner-payment.md §2 Confirmation page, §5 Portal password): one per
-- purchase, the password only as an argon2id hash (PHC string).
create table portal_accounts (
    purchase_id text primary key references purchases (id),
    email text not null,
    password_hash text not null,
    created_at text not null
);
