//! Writes on SQLite: one connection, driven by a thread of its own, committing the writes that
//! wait together in one transaction (group commit).
//!
//! SQLite lets one writer in at a time. Before this, each request held the write lock across
//! its statements while its task waited its turn on the runtime's two threads behind requests
//! busy pricing and drawing pages, and every other writer met the lock and slept in SQLite's busy
//! handler. Now the requests hand their writes to this thread and wait for the answer: the
//! lock is held only while statements run, and one fsync makes a whole group durable. A write is
//! answered only once the transaction holding it has committed (`synchronous` stays FULL), so
//! what a customer was told is saved is on disk.
//!
//! Each write in a group runs inside a savepoint of its own: one that fails (a quote changed
//! since it was read, a constraint) is rolled back alone and answered with its error; the others
//! still commit.

use std::future::Future;
use std::pin::Pin;

use sqlx::{AnyConnection, Connection};
use tokio::sync::{mpsc, oneshot};

use crate::store::error::StoreError;

/// A write's statements, run on the writer's connection inside a transaction it already opened.
pub type WriteFuture<'c, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'c>>;

/// What a write hands back to the writer: whether its statements succeeded, and how to answer
/// its caller once the group's commit is known.
type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;
type Job = Box<
    dyn for<'c> FnOnce(
            &'c mut AnyConnection,
        ) -> Pin<Box<dyn Future<Output = (bool, Deliver)> + Send + 'c>>
        + Send,
>;

/// The most writes committed together.
const MAX_GROUP: usize = 64;

/// The most writes waiting for the writer; a request beyond that waits to hand its write over.
const QUEUE: usize = 1024;

#[derive(Debug, Clone)]
pub struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Opens the writer's connection to `url` (with `pragmas`) on a thread of its own.
    pub async fn start(url: &str, pragmas: &'static [&'static str]) -> Result<Self, StoreError> {
        let (jobs, receiver) = mpsc::channel::<Job>(QUEUE);
        let (ready, opened) = oneshot::channel::<Result<(), StoreError>>();
        let url = url.to_owned();
        std::thread::Builder::new()
            .name("pawpath-writer".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = ready
                            .send(Err(StoreError::Write(format!("the writer's runtime: {e}"))));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let conn = match open(&url, pragmas).await {
                        Ok(c) => c,
                        Err(e) => {
                            let _ = ready.send(Err(e));
                            return;
                        }
                    };
                    let _ = ready.send(Ok(()));
                    run(conn, receiver, &url, pragmas).await;
                });
            })
            .map_err(|e| StoreError::Write(format!("cannot start the writer thread: {e}")))?;
        opened
            .await
            .map_err(|_| StoreError::Write("the writer stopped while starting".into()))??;
        Ok(Self { jobs })
    }

    /// Runs `f` on the writer's connection inside its transaction, and answers once that
    /// transaction has committed (or with `f`'s own error, its statements rolled back).
    pub async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> WriteFuture<'c, T> + Send + 'static,
    {
        let (answer, answered) = oneshot::channel::<Result<T, StoreError>>();
        let job: Job = Box::new(move |conn| {
            Box::pin(async move {
                let result = f(conn).await;
                let ok = result.is_ok();
                let deliver: Deliver = Box::new(move |committed: Result<(), String>| {
                    let _ = answer.send(committed.map_err(StoreError::Write).and(result));
                });
                (ok, deliver)
            })
        });
        self.jobs
            .send(job)
            .await
            .map_err(|_| StoreError::Write("the writer has stopped".into()))?;
        answered
            .await
            .map_err(|_| StoreError::Write("the writer stopped before answering".into()))?
    }
}

async fn open(url: &str, pragmas: &[&str]) -> Result<AnyConnection, StoreError> {
    let mut conn = AnyConnection::connect(url).await?;
    for pragma in pragmas {
        sqlx::raw_sql(sqlx::AssertSqlSafe(*pragma))
            .execute(&mut conn)
            .await?;
    }
    Ok(conn)
}

async fn exec(conn: &mut AnyConnection, sql: &'static str) -> Result<(), String> {
    sqlx::raw_sql(sql)
        .execute(conn)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Takes the writes that wait (at most [`MAX_GROUP`]), runs them in one transaction, each in its
/// savepoint, commits, and answers each.
async fn run(
    mut conn: AnyConnection,
    mut receiver: mpsc::Receiver<Job>,
    url: &str,
    pragmas: &[&str],
) {
    let mut group: Vec<Job> = Vec::with_capacity(MAX_GROUP);
    let mut answers: Vec<Deliver> = Vec::with_capacity(MAX_GROUP);
    while receiver.recv_many(&mut group, MAX_GROUP).await > 0 {
        // The transaction and the first write's savepoint, in one trip.
        if let Err(e) = exec(&mut conn, "begin immediate; savepoint write").await {
            tracing::error!(error = %e, "writer: cannot begin a transaction");
            // Dropped unrun: each caller gets an error, and nothing was written (a transaction
            // begun before the savepoint failed is ended).
            let _ = exec(&mut conn, "rollback").await;
            group.clear();
            conn = reopen(conn, url, pragmas).await;
            continue;
        }
        let mut broken: Option<String> = None;
        // Whether the last write's savepoint is still to be released: its release goes with
        // the next statement the writer sends (the next savepoint, or the commit), one trip
        // to the connection's thread instead of two.
        let mut release_pending = false;
        let mut savepoint_open = true;
        for job in group.drain(..) {
            // After the connection failed mid-group, the rest are dropped unrun: dropping a job
            // drops its answer, so its caller gets an error, and nothing of it was written.
            if broken.is_some() {
                continue;
            }
            if !savepoint_open {
                let open = if release_pending {
                    "release write; savepoint write"
                } else {
                    "savepoint write"
                };
                if let Err(e) = exec(&mut conn, open).await {
                    broken = Some(e);
                    continue;
                }
            }
            savepoint_open = false;
            let (ok, deliver) = job(&mut conn).await;
            if ok {
                release_pending = true;
            } else {
                release_pending = false;
                if let Err(e) = exec(&mut conn, "rollback to write; release write").await {
                    broken = Some(e);
                }
            }
            answers.push(deliver);
        }
        // A group that broke, or whose commit failed, is rolled back (once) and not written.
        let committed = match broken {
            Some(e) => Err(e),
            None if release_pending => exec(&mut conn, "release write; commit").await,
            None => exec(&mut conn, "commit").await,
        };
        if let Err(e) = &committed {
            tracing::error!(error = %e, writes = answers.len(), "writer: a group did not commit");
            let _ = exec(&mut conn, "rollback").await;
        }
        for deliver in answers.drain(..) {
            deliver(committed.clone());
        }
        if committed.is_err() {
            conn = reopen(conn, url, pragmas).await;
        }
    }
}

/// The connection again, when it is still sound; a new one when it is not (a new one cannot be
/// had: the old one is kept, and the next group tries again).
async fn reopen(mut conn: AnyConnection, url: &str, pragmas: &[&str]) -> AnyConnection {
    if conn.ping().await.is_ok() {
        return conn;
    }
    match open(url, pragmas).await {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "writer: cannot reopen the database");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            conn
        }
    }
}

#[cfg(test)]
mod tests {
    #![expect(clippy::unwrap_used, reason = "tests")]
    use super::*;
    use sqlx::Row;

    async fn writer() -> (Writer, tempfile::TempDir, String) {
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("w.db").display());
        let w = Writer::start(&url, &["pragma journal_mode = wal"])
            .await
            .unwrap();
        w.write(|conn| {
            Box::pin(async move {
                sqlx::query("create table t (id integer primary key, v text not null)")
                    .execute(&mut *conn)
                    .await?;
                Ok(())
            })
        })
        .await
        .unwrap();
        (w, dir, url)
    }

    async fn count(url: &str) -> i64 {
        let mut c = AnyConnection::connect(url).await.unwrap();
        sqlx::query("select count(*) as n from t")
            .fetch_one(&mut c)
            .await
            .unwrap()
            .try_get("n")
            .unwrap()
    }

    /// Writes sent at once are committed together, and each caller's answer comes after its
    /// commit: another connection sees every row once every write has answered.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_waiting_together_commit_together_and_answer_after_commit() {
        let (w, _dir, url) = writer().await;
        let writes = (0..200).map(|i| {
            let w = w.clone();
            tokio::spawn(async move {
                w.write(move |conn| {
                    Box::pin(async move {
                        sqlx::query("insert into t (id, v) values ($1, 'x')")
                            .bind(i64::from(i))
                            .execute(&mut *conn)
                            .await?;
                        Ok(i)
                    })
                })
                .await
            })
        });
        let answers: Vec<i32> = futures_answers(writes).await;
        assert_eq!(answers.len(), 200);
        assert_eq!(count(&url).await, 200);
    }

    async fn futures_answers(
        writes: impl Iterator<Item = tokio::task::JoinHandle<Result<i32, StoreError>>>,
    ) -> Vec<i32> {
        let mut out = Vec::new();
        for w in writes.collect::<Vec<_>>() {
            out.push(w.await.unwrap().unwrap());
        }
        out
    }

    /// A write that fails after it has written (a quote changed since it was read, say) is
    /// rolled back alone and answered with its own error; the writes grouped with it commit.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failing_write_is_rolled_back_alone() {
        let (w, _dir, url) = writer().await;
        let writes: Vec<_> = (0..60)
            .map(|i: i64| {
                let w = w.clone();
                tokio::spawn(async move {
                    w.write(move |conn| {
                        Box::pin(async move {
                            sqlx::query("insert into t (id, v) values ($1, 'x')")
                                .bind(i)
                                .execute(&mut *conn)
                                .await?;
                            if i % 3 == 0 {
                                return Err(StoreError::Conflict);
                            }
                            // A constraint the database enforces fails the same way.
                            if i % 3 == 1 {
                                sqlx::query("insert into t (id, v) values ($1, null)")
                                    .bind(i + 1000)
                                    .execute(&mut *conn)
                                    .await?;
                            }
                            Ok(())
                        })
                    })
                    .await
                })
            })
            .collect();
        let mut failed = 0;
        for (i, w) in writes.into_iter().enumerate() {
            match w.await.unwrap() {
                Ok(()) => assert_eq!(i % 3, 2, "write {i} should have failed"),
                Err(StoreError::Conflict) => {
                    assert_eq!(i % 3, 0);
                    failed += 1;
                }
                Err(StoreError::Database(_)) => {
                    assert_eq!(i % 3, 1);
                    failed += 1;
                }
                Err(e) => panic!("write {i}: {e}"),
            }
        }
        assert_eq!(failed, 40);
        // Only the twenty writes that succeeded left a row.
        assert_eq!(count(&url).await, 20);
        let mut c = AnyConnection::connect(&url).await.unwrap();
        let ids: Vec<i64> = sqlx::query("select id from t order by id")
            .fetch_all(&mut c)
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get("id").unwrap())
            .collect();
        assert!(ids.iter().all(|id| id % 3 == 2), "{ids:?}");
    }
}
