//! PostgreSQL: a transition's write (its quote's update and its record), and a comparison site's
//! made quote (the quote and the transitions that made it), handed to one task that writes every
//! one of a kind waiting in one statement, so one commit (and one flush of the log to disk) and
//! one round trip serve a group of them (group commit, as SQLite's writer does).
//!
//! Each write still holds on its own: its quote is updated only where it is still at the row
//! version it was read at, and its record is inserted only where that update applied; a write
//! whose quote changed meanwhile is answered `Conflict` and the others in its group are not
//! touched. A group holds at most one write of each quote (a second waits for the next group,
//! where it meets the first's new row version). A write is answered only once the statement
//! holding it has committed. If a group's statement fails, each of its writes is tried again
//! alone, so one write's error is its own.
//!
//! A made quote is all kept or none, as alone: its quote and its transitions are in the same
//! statement.
//!
//! Pages' reads of their quotes (by the session's hash) are grouped the same way by a task of
//! their own, on PostgreSQL and on SQLite (where a read's cost was mostly the hop to its
//! connection's thread and back): one statement reads every session's quote waiting, and each
//! read is answered with the row of its own session (matched by the hash the row carries) or
//! none.
//!
//! When nothing else is waiting, a group is one write or one read: the cost is the hand-over to
//! the task. Measured with the load bench (server/benches/README.md): on PostgreSQL sharing the
//! machine's two cores, the database's CPU per transition fell by half and per page read by three
//! quarters; on SQLite pawpath's CPU per page read by about a sixth.

use std::collections::HashSet;

use sqlx::Row as _;
use sqlx::any::AnyRow;
use tokio::sync::{mpsc, oneshot};

use crate::store::conns::Conns;
use crate::store::error::StoreError;
use crate::store::rows::{OwnedQuote, TRANSITION_COLUMNS, TransitionRow};

/// The most writes taken from the queue for one round of groups.
const MAX_GROUP: usize = 32;

/// The most transitions in one statement (23 parameters each).
const MAX_TRANSITIONS: usize = 64;

/// The most parameters in one statement of made quotes (PostgreSQL takes at most 65,535): a
/// group stops before a quote that would take it past this.
const MAX_PARAMETERS: usize = 16_384;

/// The parameters of a made quote's row (`crate::store::quotes::INSERT_QUOTE`'s).
const QUOTE_COLUMNS: usize = 11;

/// The most writes waiting; a request beyond that waits to hand its write over.
const QUEUE: usize = 1024;

/// The parameters of a quote's update in a group's statement: the document, lifecycle,
/// definitions version, when, the quote, and its row version read.
const UPDATE_COLUMNS: usize = 6;

/// One transition's write, waiting for its group.
pub(crate) struct Pending {
    quote_id: String,
    row_version: i64,
    /// The new document (JSON text), lifecycle and definitions version.
    update: (String, &'static str, String),
    now: String,
    transition: TransitionRow,
    answer: oneshot::Sender<Result<i64, StoreError>>,
}

/// A made quote and the transitions that made it, waiting for its group.
pub(crate) struct Made {
    quote: OwnedQuote,
    transitions: Vec<TransitionRow>,
    answer: oneshot::Sender<Result<(), StoreError>>,
}

impl Made {
    fn parameters(&self) -> usize {
        QUOTE_COLUMNS + self.transitions.len() * TRANSITION_COLUMNS
    }
}

enum Job {
    Transition(Box<Pending>),
    Made(Box<Made>),
}

/// The hand-over to the group writer.
#[derive(Debug, Clone)]
pub(crate) struct Groups {
    jobs: mpsc::Sender<Job>,
}

/// The hand-over to the group reader (PostgreSQL and SQLite).
#[derive(Debug, Clone)]
pub(crate) struct ReadGroups {
    reads: mpsc::Sender<Read>,
}

/// A page's read of its quote by the session's hash, waiting for its group.
struct Read {
    session_hash: String,
    answer: oneshot::Sender<Result<Option<AnyRow>, StoreError>>,
}

/// The most quotes read in one statement.
const MAX_READS: usize = 32;

impl ReadGroups {
    /// Starts the task that reads the groups on `conns`.
    pub(crate) fn start(conns: std::sync::Arc<Conns>) -> Self {
        let (reads, waiting) = mpsc::channel(QUEUE);
        tokio::spawn(read_rounds(conns, waiting));
        ReadGroups { reads }
    }

    /// The quote row of the session whose hash this is, read in a group with the other reads
    /// waiting (one statement, and one round trip or hop to SQLite's connection thread, for all
    /// of them).
    pub(crate) async fn quote_by_session(
        &self,
        session_hash: &str,
    ) -> Result<Option<AnyRow>, StoreError> {
        let (answer, answered) = oneshot::channel();
        self.reads
            .send(Read {
                session_hash: session_hash.to_owned(),
                answer,
            })
            .await
            .map_err(|_| StoreError::Database(sqlx::Error::WorkerCrashed))?;
        answered
            .await
            .map_err(|_| StoreError::Database(sqlx::Error::WorkerCrashed))?
    }
}

impl Groups {
    /// Starts the task that writes the groups on `conns`.
    pub(crate) fn start(conns: std::sync::Arc<Conns>) -> Self {
        let (jobs, receiver) = mpsc::channel(QUEUE);
        tokio::spawn(run(conns, receiver));
        Groups { jobs }
    }

    /// Writes the quote's update and its transition's record (in a group with whatever else is
    /// waiting), answering the quote's new row version once committed, or `Conflict`.
    pub(crate) async fn record(
        &self,
        quote_id: String,
        row_version: i64,
        update: (String, &'static str, String),
        now: String,
        transition: TransitionRow,
    ) -> Result<i64, StoreError> {
        let (answer, answered) = oneshot::channel();
        self.hand_over(Job::Transition(Box::new(Pending {
            quote_id,
            row_version,
            update,
            now,
            transition,
            answer,
        })))
        .await?;
        answered
            .await
            .map_err(|_| StoreError::Write("the group writer stopped before answering".into()))?
    }

    /// Inserts a made quote and the transitions that made it (in a group with the other made
    /// quotes waiting), answering once committed.
    pub(crate) async fn make(
        &self,
        quote: OwnedQuote,
        transitions: Vec<TransitionRow>,
    ) -> Result<(), StoreError> {
        let (answer, answered) = oneshot::channel();
        self.hand_over(Job::Made(Box::new(Made {
            quote,
            transitions,
            answer,
        })))
        .await?;
        answered
            .await
            .map_err(|_| StoreError::Write("the group writer stopped before answering".into()))?
    }

    async fn hand_over(&self, job: Job) -> Result<(), StoreError> {
        self.jobs
            .send(job)
            .await
            .map_err(|_| StoreError::Write("the group writer has stopped".into()))
    }
}

/// A round's candidates: those held back from the round before, then the ones waiting, at most
/// `max` new (held ones do not keep new ones out: many at once on one quote or session would
/// otherwise hold up everyone else's, one round each). With none held it waits for one; `None`
/// once every sender is dropped.
async fn next_round<T>(
    held: &mut Vec<T>,
    receiver: &mut mpsc::Receiver<T>,
    max: usize,
) -> Option<Vec<T>> {
    let mut candidates = std::mem::take(held);
    let room = candidates.len() + max;
    if candidates.is_empty() {
        candidates.push(receiver.recv().await?);
    }
    while candidates.len() < room {
        match receiver.try_recv() {
            Ok(next) => candidates.push(next),
            Err(_) => break,
        }
    }
    Some(candidates)
}

/// The group writer: each round takes every write waiting (the first awaited, the rest as they
/// are), writes the transitions in one statement and the made quotes in another, answers each,
/// and starts again; it stops when every `Groups` is dropped.
async fn run(conns: std::sync::Arc<Conns>, mut receiver: mpsc::Receiver<Job>) {
    // What did not fit the groups being formed: a transition of a quote already in one or past
    // the most in one, a made quote past the parameters' bound. They start the next round.
    let mut held: Vec<Job> = Vec::new();
    while let Some(candidates) = next_round(&mut held, &mut receiver, MAX_GROUP).await {
        let mut quotes = HashSet::with_capacity(candidates.len());
        let (mut group, mut made, mut parameters) = (Vec::<Pending>::new(), Vec::new(), 0);
        for job in candidates {
            match job {
                Job::Transition(pending)
                    if group.len() < MAX_TRANSITIONS
                        && !quotes.contains(pending.quote_id.as_str()) =>
                {
                    quotes.insert(pending.quote_id.clone());
                    group.push(*pending);
                }
                Job::Made(one)
                    if made.is_empty() || parameters + one.parameters() <= MAX_PARAMETERS =>
                {
                    parameters += one.parameters();
                    made.push(*one);
                }
                other => held.push(other),
            }
        }
        if !group.is_empty() {
            write_group(&conns, group).await;
        }
        if !made.is_empty() {
            make_group(&conns, made).await;
        }
    }
}

/// The group reader: each round reads every waiting session's quote in one statement (a second
/// read of the same session waits for the next), answers each with its own session's row or
/// none, and starts again; if the statement fails, each read is tried alone.
async fn read_rounds(conns: std::sync::Arc<Conns>, mut receiver: mpsc::Receiver<Read>) {
    // A second read of a session already in the round (two tabs at once): it goes in the next.
    let mut held: Vec<Read> = Vec::new();
    while let Some(candidates) = next_round(&mut held, &mut receiver, MAX_READS).await {
        let mut sessions = HashSet::with_capacity(candidates.len());
        let mut round = Vec::with_capacity(candidates.len());
        for read in candidates {
            if round.len() < MAX_READS && !sessions.contains(read.session_hash.as_str()) {
                sessions.insert(read.session_hash.clone());
                round.push(read);
            } else {
                held.push(read);
            }
        }
        match read_sessions(&conns, &round).await {
            Ok(mut rows) => {
                for read in round {
                    let row = rows
                        .iter()
                        .position(|(hash, _)| *hash == read.session_hash)
                        .map(|at| rows.swap_remove(at).1);
                    let _ = read.answer.send(Ok(row));
                }
            }
            Err(e) if round.len() == 1 => {
                if let Some(read) = round.into_iter().next() {
                    let _ = read.answer.send(Err(e));
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, reads = round.len(), "a group's read failed; reading each alone");
                for read in round {
                    let answer = read_sessions(&conns, std::slice::from_ref(&read))
                        .await
                        .map(|rows| rows.into_iter().next().map(|(_, row)| row));
                    let _ = read.answer.send(answer);
                }
            }
        }
    }
}

/// The quote rows of the sessions read, each with its session's hash.
async fn read_sessions(conns: &Conns, reads: &[Read]) -> Result<Vec<(String, AnyRow)>, StoreError> {
    let params: Vec<String> = (1..=reads.len()).map(|p| format!("${p}")).collect();
    let sql = format!(
        concat!(
            "select session_hash, ",
            quote_columns!(),
            " from quotes where session_hash in ({})"
        ),
        params.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for read in reads {
        query = query.bind(read.session_hash.as_str());
    }
    let mut lease = conns.lease().await?;
    let rows = query.fetch_all(lease.conn()).await?;
    lease.done();
    rows.into_iter()
        .map(|row| Ok((row.try_get::<String, _>("session_hash")?, row)))
        .collect()
}

/// Inserts a group of made quotes in one statement and answers each; on an error, each alone.
async fn make_group(conns: &Conns, made: Vec<Made>) {
    if made.len() > 1 {
        match insert_made(conns, &made).await {
            Ok(()) => {
                for one in made {
                    let _ = one.answer.send(Ok(()));
                }
                return;
            }
            Err(e) => {
                tracing::warn!(error = %e, quotes = made.len(), "a group of made quotes failed; inserting each alone");
            }
        }
    }
    for one in made {
        let answer = insert_made(conns, std::slice::from_ref(&one)).await;
        let _ = one.answer.send(answer);
    }
}

/// Runs a group of made quotes' statement.
async fn insert_made(conns: &Conns, made: &[Made]) -> Result<(), StoreError> {
    let rows: Vec<usize> = made.iter().map(|one| one.transitions.len()).collect();
    let mut query = sqlx::query(sqlx::AssertSqlSafe(made_sql(&rows)));
    for one in made {
        query = one.quote.bind_after(query);
        for transition in &one.transitions {
            query = transition.bind_after(query);
        }
    }
    let mut lease = conns.lease().await?;
    let done = query.execute(lease.conn()).await?;
    lease.done();
    // Every made quote was inserted (or the statement failed), so every record joined its own.
    let records: usize = rows.iter().sum();
    if usize::try_from(done.rows_affected()).ok() != Some(records) {
        return Err(StoreError::Write(format!(
            "{} of {records} transitions of made quotes stored",
            done.rows_affected()
        )));
    }
    Ok(())
}

/// The statement inserting made quotes, each with `rows[i]` transitions: each binds its quote's
/// eleven parameters, then its transitions' seventeen each.
pub(crate) fn made_sql(rows: &[usize]) -> String {
    let mut quotes = Vec::with_capacity(rows.len());
    let mut records = Vec::new();
    let mut next = 1;
    for &n in rows {
        let p: Vec<String> = (next..next + QUOTE_COLUMNS)
            .map(|i| format!("${i}"))
            .collect();
        // As `INSERT_QUOTE`: row version 1, made and updated at the same moment.
        quotes.push(format!(
            "({}, 1, {}, {}, {})",
            p[..9].join(", "),
            p[9],
            p[9],
            p[10]
        ));
        next += QUOTE_COLUMNS;
        for _ in 0..n {
            let r: Vec<String> = (next..next + TRANSITION_COLUMNS)
                .map(|i| format!("${i}"))
                .collect();
            records.push(format!("({})", r.join(", ")));
            next += TRANSITION_COLUMNS;
        }
    }
    format!(
        concat!(
            "with made as (insert into quotes (id, quote_ref, session_hash, brand, channel, journey, ",
            "definition_version, lifecycle, document, row_version, created_at, updated_at, opening) ",
            "values {} returning id) ",
            "insert into step_transitions (",
            transition_columns!(),
            ") select r.* from (values {}) as r (",
            transition_columns!(),
            ") join made on made.id = r.quote_id"
        ),
        quotes.join(", "),
        records.join(", ")
    )
}

/// Writes a group in one statement and answers each of its writes; on an error, each alone.
async fn write_group(conns: &Conns, group: Vec<Pending>) {
    if group.len() > 1 {
        match write(conns, &group).await {
            Ok(applied) => {
                for pending in group {
                    let answer = if applied.contains(&pending.quote_id) {
                        Ok(pending.row_version + 1)
                    } else {
                        Err(StoreError::Conflict)
                    };
                    let _ = pending.answer.send(answer);
                }
                return;
            }
            Err(e) => {
                tracing::warn!(error = %e, writes = group.len(), "a group's write failed; writing each alone");
            }
        }
    }
    for pending in group {
        let one = std::slice::from_ref(&pending);
        let answer = match write(conns, one).await {
            Ok(applied) if applied.contains(&pending.quote_id) => Ok(pending.row_version + 1),
            Ok(_) => Err(StoreError::Conflict),
            Err(e) => Err(e),
        };
        let _ = pending.answer.send(answer);
    }
}

/// Runs the group's statement: the quotes whose update applied (and whose record was written).
async fn write(conns: &Conns, group: &[Pending]) -> Result<HashSet<String>, StoreError> {
    let sql = group_sql(group.len());
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for pending in group {
        let (document, lifecycle, definition_version) = &pending.update;
        query = pending.transition.bind_after(
            query
                .bind(document.as_str())
                .bind(*lifecycle)
                .bind(definition_version.as_str())
                .bind(pending.now.as_str())
                .bind(pending.quote_id.as_str())
                .bind(pending.row_version),
        );
    }
    let mut lease = conns.lease().await?;
    let rows = query.fetch_all(lease.conn()).await?;
    lease.done();
    rows.iter()
        .map(|row| {
            row.try_get::<String, _>("quote_id")
                .map_err(StoreError::from)
        })
        .collect()
}

/// The statement writing `n` transitions: each quote's update where it is still at the row
/// version read, and each record where its quote's update applied; it returns those quotes.
/// Each write binds its update's six parameters (the document, lifecycle, definitions version,
/// when, the quote and its row version read), then its record's seventeen.
pub(crate) fn group_sql(n: usize) -> String {
    let per = UPDATE_COLUMNS + TRANSITION_COLUMNS;
    let params = |from: usize, count: usize| {
        let list: Vec<String> = (from..from + count).map(|p| format!("${p}")).collect();
        format!("({})", list.join(", "))
    };
    let updates: Vec<String> = (0..n)
        .map(|w| params(w * per + 1, UPDATE_COLUMNS))
        .collect();
    let records: Vec<String> = (0..n)
        .map(|w| params(w * per + UPDATE_COLUMNS + 1, TRANSITION_COLUMNS))
        .collect();
    format!(
        concat!(
            "with w (document, lifecycle, definition_version, updated_at, id, row_version) as (values {}), ",
            "updated as (update quotes q set document = w.document, lifecycle = w.lifecycle, ",
            "definition_version = w.definition_version, row_version = q.row_version + 1, history = q.history + 1, ",
            "updated_at = w.updated_at from w where q.id = w.id and q.row_version = w.row_version ",
            "returning q.id) ",
            "insert into step_transitions (",
            transition_columns!(),
            ") select r.* from (values {}) as r (",
            transition_columns!(),
            ") join updated on updated.id = r.quote_id returning step_transitions.quote_id"
        ),
        updates.join(", "),
        records.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_write_binds_its_update_then_its_record() {
        let sql = group_sql(2);
        assert!(sql.contains("(values ($1, $2, $3, $4, $5, $6), ($24, $25, $26, $27, $28, $29))"));
        assert!(sql.contains("(values ($7, $8, "), "{sql}");
        assert!(sql.contains("$23), ($30, "), "{sql}");
        assert!(sql.ends_with("returning step_transitions.quote_id"));
        assert!(!sql.contains("$47"), "two writes bind 46 parameters");
    }

    #[test]
    fn each_made_quote_binds_its_row_then_its_transitions() {
        let sql = made_sql(&[1, 2]);
        assert!(
            sql.contains("values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $10, $11), ($29, "),
            "{sql}"
        );
        assert!(sql.contains("(values ($12, "), "{sql}");
        assert!(sql.contains("$28), ($40, "), "{sql}");
        assert!(sql.contains("$56), ($57, "), "{sql}");
        assert!(sql.contains("$73)) as r ("), "{sql}");
        assert!(
            !sql.contains("$74"),
            "two quotes and three transitions bind 73 parameters"
        );
    }
}
