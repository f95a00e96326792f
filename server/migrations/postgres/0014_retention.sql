-- Keeping only what the law allows. Expand only: a server of the version before
-- ignores the new column and table and keeps working.
--
-- A quote never bought is purged once it has been left alone for the retention period
-- (PAWPATH_RETENTION_DAYS): its answers, its encrypted secrets (bank details, certificates), its
-- emails and links go; its row stays with no personal data (brand, channel, journey, dates) and
-- its transitions without their pricing working, so the funnel's counts survive. `purged_at`
-- says when.
alter table quotes add column purged_at text;
create index quotes_purgeable on quotes (updated_at) where purged_at is null and lifecycle <> 'purchased';

-- Subject access and erasure requests (`pawpath subject export|erase`), as the law asks they be
-- recorded: what was asked, how the subject was found (an email address only as its digest),
-- how many quotes it matched and what was done.
create table data_requests (
    id text primary key,
    kind text not null,          -- export, erase
    matched_by text not null,    -- reference:<ref> or email:<sha-256 of the lower-cased address>
    quotes bigint not null,      -- quotes found
    erased bigint not null,      -- quotes purged (erase)
    kept bigint not null,        -- bought quotes kept as an insurer must (erase)
    created_at text not null
);
