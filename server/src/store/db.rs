//! The database: one pool (or, on SQLite, a writer and a pool of readers), its migrations, and
//! the small helpers every part of the store writes with.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Debug, Clone)]
pub struct Store {
    /// Reads (and on PostgreSQL, writes too).
    pub(crate) pool: AnyPool,
    /// Writes: on SQLite one connection, so writers queue in order (see `connect`); on
    /// PostgreSQL the same pool as reads.
    pub(crate) writer: AnyPool,
    /// How the hot path writes on this backend: the two side by side in [`Hot`].
    pub(crate) hot: Hot,
    /// Pages' reads of their quote by session, read in groups on `reads` (`crate::store::batch`).
    pub(crate) read_groups: crate::store::batch::ReadGroups,
    /// The hot path's reads (pages' quotes, through `read_groups`; health): `conns` on
    /// PostgreSQL, connections of their own on SQLite. Not sqlx's pool, which checks each
    /// connection with a round trip (on SQLite a hop to the connection's thread and back) every
    /// time one goes back to it.
    pub(crate) reads: std::sync::Arc<crate::store::conns::Conns>,
    pub backend: Backend,
    /// The most transitions one quote's history holds: past it, a transition other
    /// than a reset or an expiry is refused ([`StoreError::HistoryFull`]) and nothing changes.
    pub history_ceiling: i64,
}

/// How each backend writes the hot path (transitions, new quotes, activity, product views), side
/// by side: every method that differs matches on this, so a reader sees both at once.
#[derive(Debug, Clone)]
pub(crate) enum Hot {
    /// SQLite: one connection on a thread of its own, committed in groups
    /// (`crate::store::writer`), so writers queue in order instead of meeting SQLite's lock.
    Sqlite { group: crate::store::writer::Writer },
    /// PostgreSQL: connections of the hot path's own, one round trip per statement
    /// (`crate::store::conns`), with transitions' writes committed in groups on them
    /// (`crate::store::batch`).
    Postgres {
        conns: std::sync::Arc<crate::store::conns::Conns>,
        groups: crate::store::batch::Groups,
    },
}

pub use crate::config::HISTORY_CEILING;

/// Every SQLite connection's settings: WAL lets readers and the writer share the file; a second
/// process on the same file (`pawpath report`) waits out a writer; foreign keys hold.
pub(crate) const SQLITE_PRAGMAS: &[&str] = &[
    "pragma journal_mode = wal",
    "pragma busy_timeout = 5000",
    "pragma foreign_keys = on",
];

use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;

use crate::store::conns::IDLE_BEFORE_PING;
use crate::store::error::StoreError;

/// The migrations this build knows, for `backend`. A database that already holds later ones (a
/// newer server, mid rolling deploy, ran them) is not an error: every migration only adds (expand)
/// until no running server needs what a later one removes (contract); see server/deploy/README.md,
/// "Changing the schema".
fn migrations(backend: Backend) -> sqlx::migrate::Migrator {
    let files = match backend {
        Backend::Sqlite => SQLITE_MIGRATIONS,
        Backend::Postgres => POSTGRES_MIGRATIONS,
    };
    let mut migrator = sqlx::migrate::Migrator::with_migrations(
        files
            .iter()
            .map(|(name, sql)| migration(name, sql))
            .collect(),
    );
    migrator.set_ignore_missing(true);
    migrator
}

/// Each backend's migration files, embedded in the binary as `sqlx::migrate!` would embed them
/// (without its procedural macro, whose build pulls in every database driver a second time): a
/// file added to a folder is added here too, and a test holds each list to its folder.
macro_rules! embedded {
    ($folder:literal: $($file:literal,)*) => {
        &[$(($file, include_str!(concat!("../../migrations/", $folder, "/", $file))),)*]
    };
}

const SQLITE_MIGRATIONS: &[(&str, &str)] = embedded!("sqlite":
        "0001_quotes_and_transitions.sql",
        "0002_rate_limits.sql",
        "0003_pricing_and_views.sql",
        "0004_experiment_views.sql",
        "0005_quote_secrets.sql",
        "0006_purchases.sql",
        "0007_portal_accounts.sql",
        "0008_outbox.sql",
        "0009_card_payments.sql",
        "0010_policy_links.sql",
        "0011_used_links.sql",
        "0013_quote_emails.sql",
        "0014_retention.sql",
        "0015_replay.sql",
        "0016_quiet_updates.sql",
        "0017_history_count.sql",
        "0018_policy_events.sql",
        "0019_card_attempts.sql",
        "0020_kept_cards.sql",
        "0021_quote_pace.sql",
        "0022_card_attempt_requests.sql",
        "0023_staff.sql",
);

const POSTGRES_MIGRATIONS: &[(&str, &str)] = embedded!("postgres":
        "0001_quotes_and_transitions.sql",
        "0002_rate_limits.sql",
        "0003_pricing_and_views.sql",
        "0004_experiment_views.sql",
        "0005_quote_secrets.sql",
        "0006_purchases.sql",
        "0007_portal_accounts.sql",
        "0008_outbox.sql",
        "0009_card_payments.sql",
        "0010_policy_links.sql",
        "0011_used_links.sql",
        "0012_quote_documents_inline.sql",
        "0013_quote_emails.sql",
        "0014_retention.sql",
        "0015_replay.sql",
        "0016_quiet_updates.sql",
        "0017_history_count.sql",
        "0018_policy_events.sql",
        "0019_card_attempts.sql",
        "0020_kept_cards.sql",
        "0021_quote_pace.sql",
        "0022_card_attempt_requests.sql",
        "0023_staff.sql",
);

/// A migration from its file, as sqlx reads a folder: the version before the first `_`, the rest
/// of the name (less `.sql`, `_` as spaces) its description, the checksum over the SQL, and no
/// transaction for a file that opens with `-- no-transaction`.
fn migration(name: &str, sql: &'static str) -> sqlx::migrate::Migration {
    let (version, description) = name.split_once('_').unwrap_or((name, name));
    sqlx::migrate::Migration::new(
        version.parse().unwrap_or_default(),
        description
            .trim_end_matches(".sql")
            .replace('_', " ")
            .into(),
        sqlx::migrate::MigrationType::Simple,
        sqlx::SqlSafeStr::into_sql_str(sqlx::AssertSqlSafe(sql)),
        sql.starts_with("-- no-transaction"),
    )
}

/// A random identifier: 128 bits, URL-safe base64.
pub fn random_id() -> String {
    use base64::Engine as _;
    use rand::Rng;
    let bytes: [u8; 16] = rand::rng().random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A new quote's id: the time it was made in milliseconds (12 hex digits), then 80 random bits
/// (20 hex digits). Never shown to the customer and never enough to find a quote by (a page
/// finds its quote by the session's hash). Ids made later sort after earlier ones, so a new
/// quote's id, and its transitions' `(quote_id, id)`, go at the end of their indexes: a commit
/// writes a few pages there, not one page of each index for each quote in it.
pub fn quote_id() -> String {
    use rand::Rng;
    use std::fmt::Write as _;
    let ms = u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or(0) & 0xffff_ffff_ffff;
    let random: u128 = rand::rng().random::<u128>() >> 48;
    let mut id = String::with_capacity(32);
    let _ = write!(id, "{ms:012x}{random:020x}");
    id
}

pub(crate) fn now() -> String {
    timestamp(chrono::Utc::now())
}

/// Every stored timestamp: RFC 3339 in UTC to the microsecond, so that text order is time order.
pub(crate) fn timestamp(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

impl Store {
    /// The store at `url`, with at most the default number of PostgreSQL connections.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with(url, crate::config::DATABASE_CONNECTIONS).await
    }

    /// The store at `url`, with at most `connections` to PostgreSQL (`PAWPATH_DATABASE_CONNECTIONS`:
    /// a third, at least one, on sqlx's pool for the occasional work, the rest for the hot path).
    pub async fn connect_with(url: &str, connections: u32) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            Backend::Postgres
        };
        let options = |max: u32| {
            AnyPoolOptions::new()
                .max_connections(max)
                // A connection is checked with a round trip only when it has sat idle a while (a
                // database restarted meanwhile); checking every one doubled a request's trips.
                .test_before_acquire(false)
                .before_acquire(|conn, meta| {
                    Box::pin(async move {
                        if meta.idle_for > IDLE_BEFORE_PING {
                            sqlx::Connection::ping(conn).await?;
                        }
                        Ok(true)
                    })
                })
        };
        match backend {
            Backend::Sqlite => {
                // WAL lets readers and the writer share the file. Every write goes through one
                // connection: writers queue for it in order instead of meeting SQLite's lock, whose
                // busy handler sleeps (1 ms, 2 ms, 5 ms, … up to 100 ms a time) and so made the
                // tail of every write the sleep of another's. busy_timeout stays for a second
                // process (`pawpath report`, `terminate-policy`) on the same file.
                let setup = |options: AnyPoolOptions| {
                    options.after_connect(|conn, _| {
                        Box::pin(async move {
                            for pragma in SQLITE_PRAGMAS {
                                sqlx::query(sqlx::AssertSqlSafe(*pragma))
                                    .execute(&mut *conn)
                                    .await?;
                            }
                            Ok(())
                        })
                    })
                };
                let writer = setup(options(1)).connect(url).await?;
                let pool = setup(options(4)).connect(url).await?;
                let group = crate::store::writer::Writer::start(url, SQLITE_PRAGMAS).await?;
                let reads =
                    std::sync::Arc::new(crate::store::conns::Conns::new(url, 4, SQLITE_PRAGMAS));
                Ok(Self {
                    pool,
                    writer,
                    hot: Hot::Sqlite { group },
                    read_groups: crate::store::batch::ReadGroups::start(reads.clone()),
                    reads,
                    backend,
                    history_ceiling: HISTORY_CEILING,
                })
            }
            Backend::Postgres => {
                // The hot path (a page's read, a transition, a new or inbound quote, activity)
                // on its own connections; the rest (purchases, retrieval, reports) on sqlx's pool.
                let occasional = (connections / 3).max(1);
                let hot =
                    usize::try_from(connections.saturating_sub(occasional).max(1)).unwrap_or(1);
                let pool = options(occasional).connect(url).await?;
                let conns = std::sync::Arc::new(crate::store::conns::Conns::new(url, hot, &[]));
                Ok(Self {
                    writer: pool.clone(),
                    pool,
                    hot: Hot::Postgres {
                        conns: conns.clone(),
                        groups: crate::store::batch::Groups::start(conns.clone()),
                    },
                    read_groups: crate::store::batch::ReadGroups::start(conns.clone()),
                    reads: conns,
                    backend,
                    history_ceiling: HISTORY_CEILING,
                })
            }
        }
    }

    /// The store with another history ceiling (`PAWPATH_HISTORY_CEILING`).
    pub fn with_history_ceiling(mut self, ceiling: i64) -> Self {
        self.history_ceiling = ceiling;
        self
    }

    /// A transaction on the connection of the rarer writes (purchases, emails, rate limits,
    /// retention). On SQLite it takes the write lock as it begins (`begin immediate`), waiting
    /// out another writer with the busy timeout: begun as SQLite's default (deferred), a
    /// transaction that reads before it writes takes its snapshot at the read and, if the
    /// group writer commits before its first write, that write fails at once (SQLITE_BUSY,
    /// with no wait and no retry), and the customer's call would fail with it.
    pub(crate) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        Ok(match self.backend {
            Backend::Sqlite => self.writer.begin_with("begin immediate").await?,
            Backend::Postgres => self.writer.begin().await?,
        })
    }

    /// Runs `f`'s statements in a transaction of their own (PostgreSQL) or in the SQLite
    /// writer's group (`crate::store::writer`), and answers once they are committed; an error from `f`
    /// rolls its statements back.
    pub(crate) async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut sqlx::AnyConnection) -> crate::store::writer::WriteFuture<'c, T>
            + Send
            + 'static,
    {
        match &self.hot {
            Hot::Sqlite { group } => group.write(f).await,
            Hot::Postgres { conns, .. } => {
                use sqlx::Connection as _;
                let mut lease = conns.lease().await?;
                let mut tx = lease.conn().begin().await?;
                let out = match f(&mut tx).await {
                    Ok(v) => {
                        tx.commit().await?;
                        Ok(v)
                    }
                    Err(e) => {
                        tx.rollback().await?;
                        Err(e)
                    }
                };
                lease.done();
                out
            }
        }
    }

    pub async fn migrate(&self) -> Result<(), StoreError> {
        migrations(self.backend).run(&self.writer).await?;
        Ok(())
    }

    /// Ready for traffic: the database answers, and every migration this build knows has been
    /// applied (a later one, from a newer server, is fine). `Err` says what is wrong.
    pub async fn ready(&self) -> Result<(), String> {
        let applied: Vec<(i64,)> =
            sqlx::query_as("select version from _sqlx_migrations where success")
                .fetch_all(&self.pool)
                .await
                .map_err(|e| format!("database: {e}"))?;
        let applied: std::collections::HashSet<i64> = applied.into_iter().map(|(v,)| v).collect();
        let missing: Vec<String> = migrations(self.backend)
            .iter()
            .filter(|m| !m.migration_type.is_down_migration() && !applied.contains(&m.version))
            .map(|m| format!("{:04} {}", m.version, m.description))
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("migrations not applied: {}", missing.join(", ")))
        }
    }

    /// Connections of each pool: sqlx's (`main`, and on SQLite its `writer`) and the hot path's
    /// own (`hot_path`): (pool, in use, idle).
    pub fn pool_use(&self) -> Vec<(&'static str, u32, u32)> {
        let of = |pool: &AnyPool| {
            let idle = u32::try_from(pool.num_idle()).unwrap_or(u32::MAX);
            (pool.size().saturating_sub(idle), idle)
        };
        let mut pools = vec![("main", of(&self.pool))];
        if self.backend == Backend::Sqlite {
            pools.push(("writer", of(&self.writer)));
        }
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        pools.push((
            "hot_path",
            (count(self.reads.in_use()), count(self.reads.idle_count())),
        ));
        pools.into_iter().map(|(n, (u, i))| (n, u, i)).collect()
    }

    pub async fn ping(&self) -> Result<(), StoreError> {
        on_conn!(self, sqlx::query("select 1"), execute);
        Ok(())
    }

    /// Counts one attempt for each key in the window starting at `window_start` (windows of
    /// `window` seconds) and returns, for each key, (attempts in this window, attempts in the
    /// one before); windows before that are forgotten. Kept in the database, so every pawpath
    /// process shares the counts.
    pub async fn count_attempt(
        &self,
        keys: &[String],
        window_start: i64,
        window: i64,
    ) -> Result<Vec<(i64, i64)>, StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query("delete from rate_limits where window_start < $1")
            .bind(window_start - window)
            .execute(&mut *tx)
            .await?;
        let mut counts = Vec::with_capacity(keys.len());
        for key in keys {
            let (hits,): (i64,) = sqlx::query_as(
                "insert into rate_limits (key, window_start, hits) values ($1, $2, 1)
                 on conflict (key, window_start) do update set hits = rate_limits.hits + 1
                 returning hits",
            )
            .bind(key)
            .bind(window_start)
            .fetch_one(&mut *tx)
            .await?;
            let before: Option<(i64,)> =
                sqlx::query_as("select hits from rate_limits where key = $1 and window_start = $2")
                    .bind(key)
                    .bind(window_start - window)
                    .fetch_optional(&mut *tx)
                    .await?;
            counts.push((hits, before.map_or(0, |b| b.0)));
        }
        tx.commit().await?;
        Ok(counts)
    }

    pub async fn close(&self) {
        self.reads.close().await;
        self.pool.close().await;
        self.writer.close().await;
    }
}

#[cfg(test)]
mod tests {
    #![expect(clippy::unwrap_used, reason = "tests")]
    use super::{Store, quote_id};
    use sqlx::Row;

    /// A rarer write that reads before it writes (a quote's emails counted, then one added) is
    /// not failed by the group writer committing between its read and its write: it holds the
    /// write lock from its start, so the group's write waits for it instead. Begun deferred, the
    /// insert below failed at once with SQLITE_BUSY (code 517, a stale snapshot): the likely
    /// cause of a 500 seen once from /api/sendquoteemail beside other writes.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_rarer_write_that_reads_first_is_not_failed_by_a_group_write() {
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("s.db").display());
        let store = Store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        let mut tx = store.begin_write().await.unwrap();
        let n: i64 = sqlx::query("select count(*) as n from rate_limits")
            .fetch_one(&mut *tx)
            .await
            .unwrap()
            .try_get("n")
            .unwrap();
        assert_eq!(n, 0);
        let group = {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .write(|conn| {
                        Box::pin(async move {
                            sqlx::query(
                                "insert into rate_limits (key, window_start, hits) values ('group', 0, 1)",
                            )
                            .execute(&mut *conn)
                            .await?;
                            Ok(())
                        })
                    })
                    .await
            })
        };
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        sqlx::query("insert into rate_limits (key, window_start, hits) values ('rarer', 0, 1)")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        group.await.unwrap().unwrap();
        let keys: Vec<(String,)> = sqlx::query_as("select key from rate_limits order by key")
            .fetch_all(&store.pool)
            .await
            .unwrap();
        assert_eq!(keys, [("group".to_owned(),), ("rarer".to_owned(),)]);
    }

    #[test]
    pub(crate) fn a_quote_id_is_its_time_then_eighty_random_bits_and_later_ids_sort_after() {
        let first = quote_id();
        assert_eq!(first.len(), 32, "{first}");
        assert!(
            first
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        let ms = i64::from_str_radix(&first[..12], 16).expect("hex");
        let now = chrono::Utc::now().timestamp_millis();
        assert!(
            (now - ms).abs() < 60_000,
            "the time it was made: {ms} vs {now}"
        );
        // Made in the same millisecond, two ids still differ (the random part).
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| quote_id()).collect();
        assert_eq!(ids.len(), 1000);
        std::thread::sleep(std::time::Duration::from_millis(2));
        let later = quote_id();
        assert!(later > first, "{later} sorts after {first}");
    }

    /// Every migration file of each folder is embedded, with its SQL as the file holds it, and
    /// read as `sqlx::migrate!` reads a folder (version, description, checksum).
    #[test]
    fn the_embedded_migrations_are_the_folders() {
        for (folder, embedded) in [
            ("sqlite", super::SQLITE_MIGRATIONS),
            ("postgres", super::POSTGRES_MIGRATIONS),
        ] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(folder);
            let mut files: Vec<String> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            files.sort();
            let names: Vec<&str> = embedded.iter().map(|(name, _)| *name).collect();
            assert_eq!(
                names, files,
                "server/migrations/{folder} and its list in db.rs"
            );
            for (name, sql) in embedded {
                assert_eq!(*sql, std::fs::read_to_string(dir.join(name)).unwrap());
            }
            let resolved = sqlx::migrate::resolve_blocking(&dir).unwrap();
            for ((ours, _), (theirs, _)) in embedded
                .iter()
                .map(|(name, sql)| (super::migration(name, sql), ()))
                .zip(resolved)
            {
                assert_eq!(ours.version, theirs.version);
                assert_eq!(ours.description, theirs.description);
                assert_eq!(ours.checksum, theirs.checksum);
                assert_eq!(ours.no_tx, theirs.no_tx);
            }
        }
    }
}
