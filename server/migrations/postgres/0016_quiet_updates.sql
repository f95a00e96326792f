-- A step's update leaves the quote's indexes alone. Safe mid rolling deploy: it
-- replaces an index no query names, and a server of the version before still finds purgeable
-- quotes without it (by a scan of quotes, in the retention job only).
--
-- The retention job's index was on `updated_at`, which every transition changes. In PostgreSQL
-- an update that changes an indexed column cannot be a heap-only (HOT) update: every transition
-- wrote a new entry into each of the quote's five indexes, with its WAL, and left dead ones for
-- vacuum. A quote last changed before the cutoff was also made before it (`updated_at` is never
-- before `created_at`), so the job looks for candidates by `created_at`, which never changes, and
-- keeps its test on `updated_at`. A transition's update now changes no indexed column, and the
-- room left in each page (fillfactor 70; pages written from now on) lets the new version go in
-- the same page, so only the row's page is written.
drop index quotes_purgeable;
create index quotes_purgeable on quotes (created_at) where purged_at is null and lifecycle <> 'purchased';
alter table quotes set (fillfactor = 70);
