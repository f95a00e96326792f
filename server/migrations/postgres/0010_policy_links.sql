-- The annual rehoming flow (journey.md §1 Extra flows, §2 Routes): a free rehoming policy can be
-- cancelled (its link then opens /policy-terminated), and the annual quote made from its signed
-- link is kept against it, one per policy, so a second click reopens that quote and a bought one
-- answers /already-purchased.
alter table policies add column terminated_at text;  -- RFC 3339, UTC; null while in force

create table policy_links (
    source_policy text primary key references policies (policy_number),
    quote_id text not null unique references quotes (id),
    created_at text not null
);
