//! PostgreSQL: a transition's write (its quote's update and its record) handed to one task that
//! writes every one waiting in one statement, so one commit (and one flush of the log to disk)
//! and one round trip serve a group of them (group commit, as SQLite's writer does).
//!
//! Each write still holds on its own: its quote is updated only where it is still at the row
//! version it was read at, and its record is inserted only where that update applied; a write
//! whose quote changed meanwhile is answered `Conflict` and the others in its group are not
//! touched. A group holds at most one write of each quote (a second waits for the next group,
//! where it meets the first's new row version). A write is answered only once the statement
//! holding it has committed. If a group's statement fails, each of its writes is tried again
//! alone, so one write's error is its own.
//!
//! When nothing else is waiting, a group is one write: the cost is the hand-over to this task.

use std::collections::HashSet;

use sqlx::Row as _;
use tokio::sync::{mpsc, oneshot};

use crate::store::conns::Conns;
use crate::store::error::StoreError;
use crate::store::transitions::{TRANSITION_COLUMNS, TransitionRow};

/// The most writes in one statement (23 parameters each).
const MAX_GROUP: usize = 32;

/// The most writes waiting; a request beyond that waits to hand its write over.
const QUEUE: usize = 1024;

/// The parameters of a quote's update in a group's statement, in [`bind_update`]'s order.
const UPDATE_COLUMNS: usize = 6;

/// One transition's write, waiting for its group.
pub(crate) struct Pending {
    pub(crate) quote_id: String,
    pub(crate) row_version: i64,
    /// The new document (JSON text), lifecycle and definitions version.
    pub(crate) update: (String, &'static str, String),
    pub(crate) now: String,
    pub(crate) transition: TransitionRow,
    answer: oneshot::Sender<Result<i64, StoreError>>,
}

/// The hand-over to the group task.
#[derive(Debug, Clone)]
pub(crate) struct Groups {
    jobs: mpsc::Sender<Pending>,
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
        self.jobs
            .send(Pending {
                quote_id,
                row_version,
                update,
                now,
                transition,
                answer,
            })
            .await
            .map_err(|_| StoreError::Write("the group writer has stopped".into()))?;
        answered
            .await
            .map_err(|_| StoreError::Write("the group writer stopped before answering".into()))?
    }
}

async fn run(conns: std::sync::Arc<Conns>, mut receiver: mpsc::Receiver<Pending>) {
    // Writes of a quote already in the group being formed: they go in the next.
    let mut held: Vec<Pending> = Vec::new();
    loop {
        let mut candidates: Vec<Pending> = std::mem::take(&mut held);
        if candidates.is_empty() {
            match receiver.recv().await {
                Some(first) => candidates.push(first),
                None => return,
            }
        }
        while candidates.len() < MAX_GROUP {
            match receiver.try_recv() {
                Ok(next) => candidates.push(next),
                Err(_) => break,
            }
        }
        let mut quotes = HashSet::with_capacity(candidates.len());
        let mut group = Vec::with_capacity(candidates.len());
        for pending in candidates {
            if quotes.contains(pending.quote_id.as_str()) {
                held.push(pending);
            } else {
                quotes.insert(pending.quote_id.clone());
                group.push(pending);
            }
        }
        write_group(&conns, group).await;
    }
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
        query = pending.transition.bind_ref(
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
            "definition_version = w.definition_version, row_version = q.row_version + 1, ",
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
}
