-- The people who change the journey in the studio, each with a role: a viewer reads, an editor
-- changes drafts, a publisher approves and publishes (never a draft of their own). Only the
-- password's argon2id hash is kept; an account is disabled, never deleted, so what it did stays
-- attributed.
create table staff (
    id text primary key,
    email text not null unique,
    name text not null,
    role text not null check (role in ('viewer', 'editor', 'publisher')),
    password_hash text not null,
    disabled_at text,
    created_at text not null
);

-- A signed-in member of staff: the cookie's token is kept only as its SHA-256. A session ends
-- at its expiry, after an idle spell (seen_at), on sign-out, or when its account is disabled.
create table staff_sessions (
    token_hash text primary key,
    staff_id text not null references staff (id),
    created_at text not null,
    expires_at text not null,
    seen_at text not null
);
create index staff_sessions_staff on staff_sessions (staff_id);
