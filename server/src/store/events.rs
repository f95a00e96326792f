//! Policy events: written in the transaction of what they record, claimed by the
//! delivery worker one stream's head at a time (a purchase's events arrive in the order they
//! were written), marked delivered or due again. Nothing here knows how they are sent.

use sqlx::Row;

use crate::store::db::{Backend, Store, now, timestamp};
use crate::store::error::StoreError;

/// An event to write: its webhook id, the stream it is ordered within, its type and the body
/// every attempt sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    pub id: String,
    pub stream: String,
    pub kind: String,
    pub body: String,
}

/// An event a worker has claimed.
#[derive(Debug, Clone)]
pub struct EventRow {
    pub id: String,
    pub kind: String,
    pub body: String,
    pub attempts: i64,
}

/// An event as `pawpath events list` shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EventSummary {
    pub id: String,
    pub stream: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub created_at: String,
    pub attempts: i64,
    pub next_attempt_at: String,
    pub delivered_at: Option<String>,
    pub last_error: Option<String>,
}

/// The events waiting, as `/metrics` shows them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventBacklog {
    /// Not yet delivered.
    pub waiting: i64,
    /// When the oldest of them was written.
    pub oldest: Option<chrono::DateTime<chrono::Utc>>,
    /// The most attempts any of them has had.
    pub most_attempts: i64,
    /// Written over a day ago and still not delivered: an alert.
    pub over_a_day: i64,
}

/// The most characters of an attempt's error kept.
const ERROR_CHARS: usize = 500;

/// The columns of a claim.
const CLAIMED: &str = "id, type, body, attempts";

/// Events due now whose stream has nothing undelivered before them (`$1`: now).
const DUE: &str = "e.delivered_at is null and e.next_attempt_at <= $1
     and (e.locked_until is null or e.locked_until <= $1)
     and not exists (select 1 from policy_events b
                     where b.stream = e.stream and b.seq < e.seq and b.delivered_at is null)";

fn claimed(row: &sqlx::any::AnyRow) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        id: row.try_get("id")?,
        kind: row.try_get("type")?,
        body: row.try_get("body")?,
        attempts: row.try_get("attempts")?,
    })
}

fn summary(r: &sqlx::any::AnyRow) -> Result<EventSummary, StoreError> {
    Ok(EventSummary {
        id: r.try_get("id")?,
        stream: r.try_get("stream")?,
        kind: r.try_get("type")?,
        created_at: r.try_get("created_at")?,
        attempts: r.try_get("attempts")?,
        next_attempt_at: r.try_get("next_attempt_at")?,
        delivered_at: r.try_get("delivered_at")?,
        last_error: r.try_get("last_error")?,
    })
}

/// Writes `events` in the transaction `conn` is in.
pub(crate) async fn insert_events(
    conn: &mut sqlx::AnyConnection,
    events: &[NewEvent],
    at: &str,
) -> Result<(), StoreError> {
    for event in events {
        sqlx::query(
            "insert into policy_events (id, stream, type, body, created_at, next_attempt_at)
             values ($1, $2, $3, $4, $5, $5)",
        )
        .bind(&event.id)
        .bind(&event.stream)
        .bind(&event.kind)
        .bind(&event.body)
        .bind(at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

impl Store {
    /// Writes events on their own (what they record is written elsewhere, or is nothing of the
    /// database's: an erasure's report).
    pub async fn write_events(&self, events: &[NewEvent]) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        insert_events(&mut tx, events, &now()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Claims the next event due for `lease`, or `None`. Only the first undelivered event of each
    /// stream is due, so a stream's events are delivered in the order they were written, and a
    /// failing one holds back those after it (and nothing of other streams).
    ///
    /// PostgreSQL: one statement with `for update skip locked`, as the email outbox claims. SQLite
    /// has one writer: read, then claimed only if still unclaimed.
    pub async fn claim_event(
        &self,
        lease: chrono::Duration,
    ) -> Result<Option<EventRow>, StoreError> {
        let until = timestamp(chrono::Utc::now() + lease);
        if self.backend == Backend::Postgres {
            let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                "update policy_events set locked_until = $2
                 where id = (select e.id from policy_events e where {DUE}
                             order by e.next_attempt_at, e.seq limit 1
                             for update skip locked)
                 returning {CLAIMED}"
            )))
            .bind(now())
            .bind(&until)
            .fetch_optional(&self.writer)
            .await?;
            return row.map(|row| claimed(&row)).transpose();
        }
        loop {
            let now = now();
            let Some(row) = sqlx::query(sqlx::AssertSqlSafe(format!(
                "select {CLAIMED} from policy_events e where {DUE}
                 order by e.next_attempt_at, e.seq limit 1"
            )))
            .bind(&now)
            .fetch_optional(&self.writer)
            .await?
            else {
                return Ok(None);
            };
            let event = claimed(&row)?;
            let done = sqlx::query(
                "update policy_events set locked_until = $1
                 where id = $2 and delivered_at is null and (locked_until is null or locked_until <= $3)",
            )
            .bind(&until)
            .bind(&event.id)
            .bind(&now)
            .execute(&self.writer)
            .await?;
            if done.rows_affected() == 1 {
                return Ok(Some(event));
            }
        }
    }

    /// Records a delivered event.
    pub async fn event_delivered(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "update policy_events set delivered_at = $1, attempts = attempts + 1, locked_until = null
             where id = $2",
        )
        .bind(now())
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Records a failed attempt: tried again at `retry_at`.
    pub async fn event_failed(
        &self,
        id: &str,
        error: &str,
        retry_at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), StoreError> {
        let error: String = error.chars().take(ERROR_CHARS).collect();
        sqlx::query(
            "update policy_events set attempts = attempts + 1, locked_until = null, last_error = $1,
                    next_attempt_at = $2
             where id = $3",
        )
        .bind(error)
        .bind(timestamp(retry_at))
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// An operator's retry (`pawpath events retry`): an undelivered event is due now. False when
    /// there is no such event, or it was delivered.
    pub async fn retry_event(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "update policy_events set next_attempt_at = $1, locked_until = null
             where id = $2 and delivered_at is null",
        )
        .bind(now())
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The undelivered events, oldest first (with `failed_only`, those with a failed attempt),
    /// at most `limit`.
    pub async fn list_events(
        &self,
        failed_only: bool,
        limit: i64,
    ) -> Result<Vec<EventSummary>, StoreError> {
        let rows = sqlx::query(
            "select id, stream, type, created_at, attempts, next_attempt_at, delivered_at, last_error
             from policy_events
             where delivered_at is null and ($1 = 0 or attempts > 0)
             order by seq limit $2",
        )
        .bind(i64::from(failed_only))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary).collect()
    }

    /// Every event of a stream in order, delivered or not (for tests and support).
    pub async fn stream_events(&self, stream: &str) -> Result<Vec<EventSummary>, StoreError> {
        let rows = sqlx::query(
            "select id, stream, type, created_at, attempts, next_attempt_at, delivered_at, last_error
             from policy_events where stream = $1 order by seq",
        )
        .bind(stream)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary).collect()
    }

    /// The events waiting, for `/metrics`.
    pub async fn event_backlog(&self) -> Result<EventBacklog, StoreError> {
        let day_ago = timestamp(chrono::Utc::now() - chrono::Duration::days(1));
        let row = sqlx::query(
            "select count(*) as waiting, min(created_at) as oldest,
                    coalesce(max(attempts), 0) as most_attempts,
                    coalesce(sum(case when created_at < $1 then 1 else 0 end), 0) as over_a_day
             from policy_events where delivered_at is null",
        )
        .bind(day_ago)
        .fetch_one(&self.pool)
        .await?;
        let oldest: Option<String> = row.try_get("oldest")?;
        Ok(EventBacklog {
            waiting: row.try_get("waiting")?,
            oldest: oldest
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok())
                .map(|t| t.with_timezone(&chrono::Utc)),
            most_attempts: row.try_get("most_attempts")?,
            over_a_day: row.try_get("over_a_day")?,
        })
    }
}
