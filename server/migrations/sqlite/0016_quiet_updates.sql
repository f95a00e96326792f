-- A step's update leaves the quote's indexes alone. Safe mid rolling deploy: it
-- replaces an index no query names, and a server of the version before still finds purgeable
-- quotes without it (by a scan of quotes, in the retention job only).
--
-- The retention job's index was on `updated_at`, which every transition changes, so every
-- transition moved the quote's entry in it: an entry deleted where the last change left it and
-- one added at the end, pages written for each. A quote last changed before the cutoff was also
-- made before it (`updated_at` is never before `created_at`), so the job looks for candidates by
-- `created_at`, which never changes, and keeps its test on `updated_at`.
drop index quotes_purgeable;
create index quotes_purgeable on quotes (created_at) where purged_at is null and lifecycle <> 'purchased';
