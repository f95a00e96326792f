//! The outbox: emails written with what they confirm, claimed by the delivery worker, marked sent
//! or failed.

use sqlx::Row;

use crate::store::db::{Store, now, timestamp};
use crate::store::error::StoreError;

/// A rendered email for the outbox.
#[derive(Debug, Clone)]
pub struct NewEmail {
    pub id: String,
    pub kind: String,
    pub recipient: String,
    pub sender_name: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
}

/// An outbox row a worker has claimed.
#[derive(Debug, Clone)]
pub struct OutboxRow {
    pub id: String,
    pub recipient: String,
    pub sender_name: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
    pub attempts: i64,
}

/// Where an email stands.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EmailStatus {
    pub requested: bool,
    pub attempts: i64,
    pub sent: bool,
    pub failed: bool,
}

fn outbox_row(row: &sqlx::any::AnyRow) -> Result<OutboxRow, StoreError> {
    Ok(OutboxRow {
        id: row.try_get("id")?,
        recipient: row.try_get("recipient")?,
        sender_name: row.try_get("sender_name")?,
        subject: row.try_get("subject")?,
        body_text: row.try_get("body_text")?,
        body_html: row.try_get("body_html")?,
        attempts: row.try_get("attempts")?,
    })
}

impl Store {
    /// Marks a purchase's email as asked for by the confirmation page (the first time only) and
    /// answers where it stands; `None` when the purchase owes no such email.
    pub async fn request_email(
        &self,
        purchase_id: &str,
        kind: &str,
    ) -> Result<Option<EmailStatus>, StoreError> {
        sqlx::query(
            "update outbox set requested_at = $1 where purchase_id = $2 and kind = $3 and requested_at is null",
        )
        .bind(now())
        .bind(purchase_id)
        .bind(kind)
        .execute(&self.writer)
        .await?;
        self.email_status(purchase_id, kind).await
    }

    /// Where a purchase's email stands.
    pub async fn email_status(
        &self,
        purchase_id: &str,
        kind: &str,
    ) -> Result<Option<EmailStatus>, StoreError> {
        let Some(row) = sqlx::query(
            "select requested_at, attempts, sent_at, failed_at from outbox where purchase_id = $1 and kind = $2",
        )
        .bind(purchase_id)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        Ok(Some(EmailStatus {
            requested: row.try_get::<Option<String>, _>("requested_at")?.is_some(),
            attempts: row.try_get("attempts")?,
            sent: row.try_get::<Option<String>, _>("sent_at")?.is_some(),
            failed: row.try_get::<Option<String>, _>("failed_at")?.is_some(),
        }))
    }

    /// Emails waiting (neither sent nor failed for good) and when the oldest of them was written.
    pub async fn outbox_backlog(
        &self,
    ) -> Result<(i64, Option<chrono::DateTime<chrono::Utc>>), StoreError> {
        let row = sqlx::query(
            "select count(*) as waiting, min(created_at) as oldest from outbox
             where sent_at is null and failed_at is null",
        )
        .fetch_one(&self.pool)
        .await?;
        let oldest: Option<String> = row.try_get("oldest")?;
        Ok((
            row.try_get("waiting")?,
            oldest
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok())
                .map(|t| t.with_timezone(&chrono::Utc)),
        ))
    }

    /// Claims the next email due for delivery for `lease` (another worker leaves it alone until
    /// then, or until it is marked), or `None` when nothing is due.
    ///
    /// PostgreSQL: one statement, `for update skip locked`, so servers claiming at the same time
    /// each take a different row without waiting on each other. SQLite has one writer: the row is
    /// read, then claimed only if still unclaimed.
    pub async fn claim_email(
        &self,
        lease: chrono::Duration,
    ) -> Result<Option<OutboxRow>, StoreError> {
        if self.backend == crate::store::db::Backend::Postgres {
            let now = now();
            let row = sqlx::query(
                "update outbox set locked_until = $1
                 where id = (select id from outbox
                             where sent_at is null and failed_at is null and next_attempt_at <= $2
                               and (locked_until is null or locked_until <= $2)
                             order by next_attempt_at limit 1
                             for update skip locked)
                 returning id, recipient, sender_name, subject, body_text, body_html, attempts",
            )
            .bind(timestamp(chrono::Utc::now() + lease))
            .bind(&now)
            .fetch_optional(&self.writer)
            .await?;
            return row.map(|row| outbox_row(&row)).transpose();
        }
        loop {
            let now = now();
            let Some(row) = sqlx::query(
                "select id, recipient, sender_name, subject, body_text, body_html, attempts from outbox
                 where sent_at is null and failed_at is null and next_attempt_at <= $1
                   and (locked_until is null or locked_until <= $1)
                 order by next_attempt_at limit 1",
            )
            .bind(&now)
            .fetch_optional(&self.writer)
            .await?
            else {
                return Ok(None);
            };
            let id: String = row.try_get("id")?;
            let claimed = sqlx::query(
                "update outbox set locked_until = $1
                 where id = $2 and sent_at is null and (locked_until is null or locked_until <= $3)",
            )
            .bind(timestamp(chrono::Utc::now() + lease))
            .bind(&id)
            .bind(&now)
            .execute(&self.writer)
            .await?;
            if claimed.rows_affected() == 1 {
                return outbox_row(&row).map(Some);
            }
            // Another worker claimed it between the two statements: look again.
        }
    }

    /// Records a delivered email.
    pub async fn email_sent(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("update outbox set sent_at = $1, attempts = attempts + 1, locked_until = null, last_error = null where id = $2")
            .bind(now())
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Records a failed delivery: tried again at `retry_at`, or never when `retry_at` is `None`
    /// (refused for good).
    pub async fn email_failed(
        &self,
        id: &str,
        error: &str,
        retry_at: Option<chrono::DateTime<chrono::Utc>>,
    ) -> Result<(), StoreError> {
        let now = now();
        sqlx::query(
            "update outbox set attempts = attempts + 1, locked_until = null, last_error = $1,
                    next_attempt_at = $2, failed_at = $3
             where id = $4",
        )
        .bind(error)
        .bind(retry_at.map_or_else(|| now.clone(), timestamp))
        .bind(if retry_at.is_none() {
            Some(now.clone())
        } else {
            None
        })
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }
}
