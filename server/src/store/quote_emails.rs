//! Emails about a quote rather than a purchase: the reminder before the quote expires,
//! decided once per quote, and the quote sent when the customer asks. Both go through the outbox.

use sqlx::Row;

use crate::store::db::{Store, now};
use crate::store::error::StoreError;
use crate::store::outbox::NewEmail;
use crate::store::quote_row::{QuoteRow, quote_from_row};

/// What became of a quote's reminder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReminderOutcome {
    /// Written to the outbox.
    Sent,
    /// The customer asked for no reminders (journey.md §3 no_quote_chase_email).
    OptedOut,
    /// The quote never reached the page that promises the reminder and offers its opt-out, or
    /// holds no email address to send it to.
    NotOffered,
    /// Another quote's reminder went to the same address in the last day: one a day at most,
    /// however many quotes name it.
    RecipientReminded,
}

impl ReminderOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            ReminderOutcome::Sent => "sent",
            ReminderOutcome::OptedOut => "opted_out",
            ReminderOutcome::NotOffered => "not_offered",
            ReminderOutcome::RecipientReminded => "recipient_reminded",
        }
    }
}

impl Store {
    /// Active quotes made after `from` and at or before `to` (RFC 3339) with no reminder decided
    /// yet, oldest first, at most `limit`.
    pub async fn reminders_due(
        &self,
        from: &str,
        to: &str,
        limit: i64,
    ) -> Result<Vec<QuoteRow>, StoreError> {
        let rows = sqlx::query(select_quote!(
            "lifecycle = 'active' and created_at > $1 and created_at <= $2
             and not exists (select 1 from quote_reminders r where r.quote_id = quotes.id)
             order by created_at limit $3"
        ))
        .bind(from)
        .bind(to)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(quote_from_row).collect()
    }

    /// Decides a quote's reminder once: records the outcome and, for one sent, writes its email
    /// to the outbox in the same transaction. `false` when another server (or an earlier run)
    /// decided it first: nothing is written.
    pub async fn decide_reminder(
        &self,
        quote_id: &str,
        outcome: ReminderOutcome,
        email: Option<&NewEmail>,
    ) -> Result<bool, StoreError> {
        let now = now();
        let mut tx = self.begin_write().await?;
        let decided = sqlx::query(
            "insert into quote_reminders (quote_id, decided_at, outcome) values ($1, $2, $3)
             on conflict (quote_id) do nothing",
        )
        .bind(quote_id)
        .bind(&now)
        .bind(outcome.as_str())
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !decided {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some(email) = email {
            insert_quote_email(&mut tx, quote_id, email, &now).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// How many reminders went to `recipient` since `since` (RFC 3339).
    pub async fn reminders_to(&self, recipient: &str, since: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query(
            "select count(*) as n from outbox where kind = 'quote_reminder' and recipient = $1 and created_at > $2",
        )
        .bind(recipient)
        .bind(since)
        .fetch_one(&self.pool)
        .await?
        .try_get("n")?)
    }

    /// How a quote's reminder was decided, if it was.
    pub async fn reminder_outcome(&self, quote_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("select outcome from quote_reminders where quote_id = $1")
            .bind(quote_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get("outcome"))
            .transpose()
            .map_err(Into::into)
    }

    /// Writes a quote's email to the outbox unless the quote already has `limit` of that kind;
    /// `false` when it has.
    pub async fn add_quote_email(
        &self,
        quote_id: &str,
        email: &NewEmail,
        limit: i64,
    ) -> Result<bool, StoreError> {
        let now = now();
        let mut tx = self.begin_write().await?;
        let count: i64 =
            sqlx::query("select count(*) as n from outbox where quote_id = $1 and kind = $2")
                .bind(quote_id)
                .bind(&email.kind)
                .fetch_one(&mut *tx)
                .await?
                .try_get("n")?;
        if count >= limit {
            tx.rollback().await?;
            return Ok(false);
        }
        insert_quote_email(&mut tx, quote_id, email, &now).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Writes a one-time retrieval link's email to the outbox unless the quote has one sent
    /// since `still_valid` (that link still works: whoever asked, it went to the owner) or
    /// `per_day` since `day`; `false` when it has. So however often anyone asks, the owner's
    /// inbox holds at most one live link and `per_day` a day.
    pub async fn add_link_email(
        &self,
        quote_id: &str,
        email: &NewEmail,
        still_valid: &str,
        day: &str,
        per_day: i64,
    ) -> Result<bool, StoreError> {
        let now = now();
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(
            "select coalesce(sum(case when created_at > $3 then 1 else 0 end), 0) as live, count(*) as today
             from outbox where quote_id = $1 and kind = $2 and created_at > $4",
        )
        .bind(quote_id)
        .bind(&email.kind)
        .bind(still_valid)
        .bind(day)
        .fetch_one(&mut *tx)
        .await?;
        let (live, today): (i64, i64) = (row.try_get("live")?, row.try_get("today")?);
        if live > 0 || today >= per_day {
            tx.rollback().await?;
            return Ok(false);
        }
        insert_quote_email(&mut tx, quote_id, email, &now).await?;
        tx.commit().await?;
        Ok(true)
    }
}

async fn insert_quote_email(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    quote_id: &str,
    email: &NewEmail,
    now: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "insert into outbox (id, quote_id, kind, recipient, sender_name, subject, body_text, body_html, created_at, next_attempt_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
    )
    .bind(&email.id)
    .bind(quote_id)
    .bind(&email.kind)
    .bind(&email.recipient)
    .bind(&email.sender_name)
    .bind(&email.subject)
    .bind(&email.body_text)
    .bind(&email.body_html)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
