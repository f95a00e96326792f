-- Signed links that open a quote once: a comparison site's click-through is spent by
-- its first use, so a link seen again (in a browser's history, a forwarded email, a log) cannot
-- take the quote to another browser. Kept by the digest of the token, never the token itself.
create table used_links (
    digest text primary key,      -- SHA-256 of the token, hex
    quote_id text not null references quotes (id),
    used_at text not null         -- RFC 3339, UTC
);
