//! Connections for the hot path, kept without sqlx's pool: on PostgreSQL its reads
//! and writes, on SQLite its reads (writes go through `crate::store::writer`).
//!
//! sqlx 0.9's pool checks every connection with a round trip each time one goes back to it (so
//! that a connection left mid-statement by a cancelled request is not handed out). A request of
//! one statement then costs two round trips, and the database's work and context switches for
//! the second are half of what it does for the hot path. Here a connection goes back only when
//! what used it said it finished cleanly ([`Lease::done`]); one dropped midway (a cancelled
//! request) or after an error is closed instead, so none is ever handed out in an unknown state
//! and none is checked needlessly. A connection idle longer than [`IDLE_BEFORE_PING`] is checked
//! before use (the database may have restarted meanwhile).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use sqlx::{AnyConnection, Connection as _};
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::store::error::StoreError;

/// How long a connection may sit idle before it is checked with a round trip when next taken.
pub const IDLE_BEFORE_PING: Duration = Duration::from_secs(30);

/// How long a request waits for a connection when all are in use, or for a new one to open,
/// before it is refused.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);

/// At most `max` connections to one database, opened as needed and kept while idle.
pub struct Conns {
    url: String,
    /// Run on each new connection (SQLite's settings).
    setup: &'static [&'static str],
    idle: Mutex<Vec<(AnyConnection, Instant)>>,
    permits: Semaphore,
    max: usize,
}

/// A connection taken from [`Conns`]: given back by [`Lease::done`], closed if dropped without.
pub struct Lease<'p> {
    conns: &'p Conns,
    conn: Option<AnyConnection>,
    _permit: SemaphorePermit<'p>,
}

impl std::fmt::Debug for Conns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conns")
            .field("idle", &self.idle_count())
            .field("free", &self.permits.available_permits())
            .finish()
    }
}

impl Conns {
    pub fn new(url: &str, max: usize, setup: &'static [&'static str]) -> Self {
        Conns {
            url: url.to_owned(),
            setup,
            idle: Mutex::new(Vec::with_capacity(max)),
            permits: Semaphore::new(max),
            max,
        }
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<(AnyConnection, Instant)>> {
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A connection: the one used last (warm), checked first if it sat idle long; else a new one.
    pub async fn lease(&self) -> Result<Lease<'_>, StoreError> {
        let permit = tokio::time::timeout(ACQUIRE_TIMEOUT, self.permits.acquire())
            .await
            .map_err(|_| StoreError::Database(sqlx::Error::PoolTimedOut))?
            .map_err(|_| StoreError::Database(sqlx::Error::PoolClosed))?;
        loop {
            let taken = self.idle().pop();
            let Some((mut conn, since)) = taken else {
                break;
            };
            if since.elapsed() > IDLE_BEFORE_PING && conn.ping().await.is_err() {
                continue;
            }
            return Ok(Lease {
                conns: self,
                conn: Some(conn),
                _permit: permit,
            });
        }
        let conn = tokio::time::timeout(ACQUIRE_TIMEOUT, self.connect())
            .await
            .map_err(|_| StoreError::Database(sqlx::Error::PoolTimedOut))??;
        Ok(Lease {
            conns: self,
            conn: Some(conn),
            _permit: permit,
        })
    }

    async fn connect(&self) -> Result<AnyConnection, sqlx::Error> {
        let mut conn = AnyConnection::connect(&self.url).await?;
        for statement in self.setup {
            sqlx::raw_sql(sqlx::AssertSqlSafe(*statement))
                .execute(&mut conn)
                .await?;
        }
        Ok(conn)
    }

    /// Closes the idle connections and takes no more: for shutting down.
    pub async fn close(&self) {
        self.permits.close();
        let idle: Vec<_> = self.idle().drain(..).collect();
        for (conn, _) in idle {
            let _ = conn.close().await;
        }
    }

    /// How many connections are leased now (for `/metrics`).
    pub fn in_use(&self) -> usize {
        self.max.saturating_sub(self.permits.available_permits())
    }

    /// How many connections are idle (for tests and `/metrics`).
    pub fn idle_count(&self) -> usize {
        self.idle().len()
    }
}

impl Lease<'_> {
    pub fn conn(&mut self) -> &mut AnyConnection {
        self.conn
            .as_mut()
            .expect("a lease holds its connection until it is done")
    }

    /// What used the connection finished cleanly: it goes back for the next request.
    pub fn done(mut self) {
        if let Some(conn) = self.conn.take()
            && !self.conns.permits.is_closed()
        {
            self.conns.idle().push((conn, Instant::now()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conns(max: usize) -> Conns {
        sqlx::any::install_default_drivers();
        Conns::new("sqlite::memory:", max, &["pragma foreign_keys = on"])
    }

    #[tokio::test]
    async fn a_connection_goes_back_only_when_its_user_finished_cleanly() {
        let conns = conns(2);
        let mut lease = conns.lease().await.expect("lease");
        sqlx::query("select 1")
            .execute(lease.conn())
            .await
            .expect("select");
        lease.done();
        assert_eq!(conns.idle_count(), 1, "done: kept for the next request");

        // A user that stops midway (an error, a cancelled request) drops its lease: the
        // connection is closed, never handed out again.
        let lease = conns.lease().await.expect("lease");
        assert_eq!(conns.idle_count(), 0, "the idle one was taken");
        drop(lease);
        assert_eq!(conns.idle_count(), 0, "dropped without done: closed");

        // A request cancelled while it holds a connection gives back its place, not the
        // connection.
        let conns = std::sync::Arc::new(conns);
        let (leased, has_lease) = tokio::sync::oneshot::channel();
        let task = tokio::spawn({
            let conns = conns.clone();
            async move {
                let _lease = conns.lease().await.expect("lease");
                let _ = leased.send(());
                std::future::pending::<()>().await;
            }
        });
        has_lease.await.expect("the task holds a connection");
        assert_eq!(conns.permits.available_permits(), 1);
        task.abort();
        let _ = task.await;
        assert_eq!(conns.idle_count(), 0, "cancelled: closed");
        assert_eq!(conns.permits.available_permits(), 2, "its place is free");
    }

    #[tokio::test]
    async fn each_new_connection_runs_the_setup_statements() {
        let conns = conns(1);
        let mut lease = conns.lease().await.expect("lease");
        let on: i64 = sqlx::query_scalar("pragma foreign_keys")
            .fetch_one(lease.conn())
            .await
            .expect("pragma");
        assert_eq!(on, 1, "the setup turned foreign keys on");
        lease.done();
    }

    #[tokio::test]
    async fn no_more_than_max_are_open_at_once() {
        let conns = std::sync::Arc::new(conns(1));
        let first = conns.lease().await.expect("lease");
        let waiting = tokio::spawn({
            let conns = conns.clone();
            async move {
                let lease = conns.lease().await.expect("lease");
                lease.done();
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "the second waits for the first");
        first.done();
        waiting.await.expect("second lease");
        assert_eq!(conns.idle_count(), 1, "one connection served both");
    }
}
