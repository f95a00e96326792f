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
//!
//! Beside the writer, a checkpointer copies committed pages from the WAL into the database file
//! ([`checkpoint_beside`]), so the writer's commits seldom have to.

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
        let committed = checkpoint_beside(url, pragmas)?;
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
                    run(conn, receiver, committed, &url, pragmas).await;
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

/// The least time between two of the checkpointer's checkpoints.
const CHECKPOINT_GAP: std::time::Duration = std::time::Duration::from_millis(10);

/// Starts the checkpointer, on a thread and a connection of its own, and answers the sender the
/// writer tells it through that it has committed.
///
/// In WAL mode a commit appends its pages to the WAL; a checkpoint copies them into the
/// database file and syncs it. Left to SQLite, the connection whose commit takes the WAL past
/// 1,000 pages does that before its commit returns: on the writer, at half of peak inbound
/// quotes, one group in sixty took 1.5 ms or more instead of about 0.2 ms, and 209 of the
/// slowest 220 quotes (the slowest 2%) had waited behind one. The checkpointer does it, after a
/// commit and at most once every [`CHECKPOINT_GAP`], as a passive checkpoint: it waits for no
/// reader and no writer, and none waits for it. The writer still checkpoints past 1,000 pages
/// (SQLite's own bound on the WAL), but by then the checkpointer has copied all but the last
/// few milliseconds of commits, so that checkpoint is short; and, unlike the checkpointer's,
/// it reaches the end of the WAL, so the next commit starts the WAL again from its beginning.
///
/// It stops when the writer does (the sender is dropped).
fn checkpoint_beside(
    url: &str,
    pragmas: &'static [&'static str],
) -> Result<mpsc::Sender<()>, StoreError> {
    // One waiting notice is enough: a checkpoint copies every commit before it.
    let (committed, mut notices) = mpsc::channel::<()>(1);
    let url = url.to_owned();
    std::thread::Builder::new()
        .name("pawpath-checkpoint".into())
        .spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                tracing::error!("checkpointer: cannot start its runtime; the writer checkpoints");
                return;
            };
            runtime.block_on(async move {
                let mut conn: Option<AnyConnection> = None;
                // Whether the last checkpoint failed: a failure is logged once, not every time.
                let mut failing = false;
                while notices.recv().await.is_some() {
                    if conn.is_none() {
                        conn = open(&url, pragmas).await.ok();
                    }
                    let done = match conn.as_mut() {
                        Some(c) => exec(c, "pragma wal_checkpoint(passive)").await,
                        None => Err("cannot open the database".to_owned()),
                    };
                    match done {
                        Ok(()) => failing = false,
                        Err(e) => {
                            if !failing {
                                tracing::warn!(error = %e, "checkpointer: a checkpoint failed; the writer checkpoints until one succeeds");
                            }
                            failing = true;
                            conn = None;
                        }
                    }
                    tokio::time::sleep(CHECKPOINT_GAP).await;
                }
            });
        })
        .map_err(|e| StoreError::Write(format!("cannot start the checkpointer thread: {e}")))?;
    Ok(committed)
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
    checkpointer: mpsc::Sender<()>,
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
        if committed.is_ok() {
            // After the answers, which do not wait for it. A notice already waiting covers
            // this commit too.
            let _ = checkpointer.try_send(());
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

    /// The checkpointer copies what the writer commits into the database file: with the WAL
    /// set aside, the file alone holds every row, although the writes were far too few (a few
    /// pages against SQLite's 1,000) for the writer to have checkpointed them itself.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_checkpointer_copies_commits_into_the_database_file() {
        let (w, dir, url) = writer().await;
        for i in 0..20_i64 {
            w.write(move |conn| {
                Box::pin(async move {
                    sqlx::query("insert into t (id, v) values ($1, 'x')")
                        .bind(i)
                        .execute(&mut *conn)
                        .await?;
                    Ok(())
                })
            })
            .await
            .unwrap();
        }
        assert_eq!(count(&url).await, 20);
        // The database file alone, copied without its WAL, as a crash before any checkpoint
        // would leave it were the WAL lost.
        let file_alone = || async {
            let copy = dir.path().join("alone.db");
            let _ = std::fs::remove_file(&copy);
            std::fs::copy(dir.path().join("w.db"), &copy).unwrap();
            let mut c = AnyConnection::connect(&format!("sqlite://{}", copy.display()))
                .await
                .unwrap();
            let n: i64 = sqlx::query("select count(*) as n from t")
                .fetch_one(&mut c)
                .await
                .map(|r| r.try_get("n").unwrap())
                .unwrap_or(0);
            n
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut in_file = file_alone().await;
        while in_file < 20 && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            in_file = file_alone().await;
        }
        assert_eq!(in_file, 20, "the database file holds every committed row");
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
