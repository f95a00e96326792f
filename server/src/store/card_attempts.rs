//! Card payment attempts: written before the payment provider is asked, with what it is asked,
//! so that what the provider answers later (after the customer's bank has asked them to
//! authenticate, by webhook once the customer has gone, or never, the answer lost) finds the
//! purchase it belongs to, and a lost answer is asked for again exactly as it was first asked.
//! Nothing here talks to a provider.

use sqlx::Row;

use crate::store::db::{Store, now};
use crate::store::error::StoreError;

/// One attempt to pay by card for a quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardAttempt {
    pub quote_id: String,
    pub attempt: i64,
    /// The purchase request's key.
    pub idempotency_key: String,
    /// The session the quote moves to when bought.
    pub session_hash: String,
    /// The provider's payment, once it has answered (or its webhook, or a listing, named it).
    pub payment_id: Option<String>,
    /// `open`; `paid` (bought with it); `failed` (nothing taken); `lost` (its key at the provider
    /// keeps a failure, so what became of it is found by listing the attempt's payments);
    /// `refunded` (taken, but not what bought the quote, and given back).
    pub outcome: String,
    /// What the provider was asked (JSON; see `service::card_payment`), none for an attempt
    /// begun before it was kept.
    pub request: Option<String>,
    /// The provider's customer the attempt's payment is made under, once made.
    pub customer_reference: Option<String>,
    pub created_at: String,
}

impl CardAttempt {
    pub fn is_open(&self) -> bool {
        self.outcome == "open"
    }

    /// Open, or lost: what became of its payment is not known yet.
    pub fn is_unsettled(&self) -> bool {
        matches!(self.outcome.as_str(), "open" | "lost")
    }

    /// The key the provider is asked with: the same for every request of one attempt (so a
    /// lost answer is asked for again, never paid twice), a new one after a failed attempt.
    pub fn provider_key(&self) -> String {
        format!("purchase-{}-{}", self.quote_id, self.attempt)
    }
}

const COLUMNS: &str = "quote_id, attempt, idempotency_key, session_hash, payment_id, outcome, \
     request, customer_reference, created_at";

fn attempt_from(row: &sqlx::any::AnyRow) -> Result<CardAttempt, StoreError> {
    Ok(CardAttempt {
        quote_id: row.try_get("quote_id")?,
        attempt: row.try_get("attempt")?,
        idempotency_key: row.try_get("idempotency_key")?,
        session_hash: row.try_get("session_hash")?,
        payment_id: row.try_get("payment_id")?,
        outcome: row.try_get("outcome")?,
        request: row.try_get("request")?,
        customer_reference: row.try_get("customer_reference")?,
        created_at: row.try_get("created_at")?,
    })
}

impl Store {
    /// The quote's latest card attempt.
    pub async fn latest_card_attempt(
        &self,
        quote_id: &str,
    ) -> Result<Option<CardAttempt>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from card_attempts where quote_id = $1 order by attempt desc limit 1"
        )))
        .bind(quote_id)
        .fetch_optional(&self.writer)
        .await?;
        row.as_ref().map(attempt_from).transpose()
    }

    /// The attempt a provider's payment belongs to, whichever quote's.
    pub async fn card_attempt_by_payment(
        &self,
        payment_id: &str,
    ) -> Result<Option<CardAttempt>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from card_attempts where payment_id = $1"
        )))
        .bind(payment_id)
        .fetch_optional(&self.writer)
        .await?;
        row.as_ref().map(attempt_from).transpose()
    }

    /// The attempt a provider's payment belongs to.
    pub async fn card_attempt_of(
        &self,
        quote_id: &str,
        payment_id: &str,
    ) -> Result<Option<CardAttempt>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from card_attempts where quote_id = $1 and payment_id = $2"
        )))
        .bind(quote_id)
        .bind(payment_id)
        .fetch_optional(&self.writer)
        .await?;
        row.as_ref().map(attempt_from).transpose()
    }

    /// Attempt `attempt` of the quote (a payment's metadata names it).
    pub async fn card_attempt_numbered(
        &self,
        quote_id: &str,
        attempt: i64,
    ) -> Result<Option<CardAttempt>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from card_attempts where quote_id = $1 and attempt = $2"
        )))
        .bind(quote_id)
        .bind(attempt)
        .fetch_optional(&self.writer)
        .await?;
        row.as_ref().map(attempt_from).transpose()
    }

    /// Begins attempt `after + 1` for the quote, with what the provider is to be asked: the
    /// attempt begun, or the one another request began first with that number (two requests of
    /// one click both find it).
    pub async fn begin_card_attempt(
        &self,
        quote_id: &str,
        after: i64,
        idempotency_key: &str,
        session_hash: &str,
        request: &str,
    ) -> Result<CardAttempt, StoreError> {
        let inserted = sqlx::query(
            "insert into card_attempts
             (quote_id, attempt, idempotency_key, session_hash, request, created_at)
             values ($1, $2, $3, $4, $5, $6)",
        )
        .bind(quote_id)
        .bind(after + 1)
        .bind(idempotency_key)
        .bind(session_hash)
        .bind(request)
        .bind(now())
        .execute(&self.writer)
        .await;
        match inserted {
            Ok(_) => {}
            Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {}
            Err(e) => return Err(e.into()),
        }
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from card_attempts where quote_id = $1 and attempt = $2"
        )))
        .bind(quote_id)
        .bind(after + 1)
        .fetch_one(&self.writer)
        .await?;
        attempt_from(&row)
    }

    /// Records the provider's payment for an attempt.
    pub async fn card_attempt_payment(
        &self,
        attempt: &CardAttempt,
        payment_id: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "update card_attempts set payment_id = $1
             where quote_id = $2 and attempt = $3 and payment_id is null",
        )
        .bind(payment_id)
        .bind(&attempt.quote_id)
        .bind(attempt.attempt)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Records the provider's customer an attempt's payment is made under.
    pub async fn card_attempt_customer(
        &self,
        attempt: &CardAttempt,
        customer: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "update card_attempts set customer_reference = $1
             where quote_id = $2 and attempt = $3 and customer_reference is null",
        )
        .bind(customer)
        .bind(&attempt.quote_id)
        .bind(attempt.attempt)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Ends an unsettled attempt as `failed`, `paid`, `lost` or `refunded` (an open one may be
    /// lost; a lost one is settled as any of the others).
    pub async fn end_card_attempt(
        &self,
        attempt: &CardAttempt,
        outcome: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "update card_attempts set outcome = $1
             where quote_id = $2 and attempt = $3 and outcome in ('open', 'lost')",
        )
        .bind(outcome)
        .bind(&attempt.quote_id)
        .bind(attempt.attempt)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Attempts whose payment is not known to be settled, begun before `before` (RFC 3339), the
    /// oldest first, at most `limit`.
    pub async fn card_attempts_unsettled(
        &self,
        before: &str,
        limit: i64,
    ) -> Result<Vec<CardAttempt>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from card_attempts
             where outcome in ('open', 'lost') and created_at < $1
             order by created_at limit $2"
        )))
        .bind(before)
        .bind(limit)
        .fetch_all(&self.writer)
        .await?;
        rows.iter().map(attempt_from).collect()
    }

    /// The provider's reference for the payment that bought the quote, if it was bought by card.
    pub async fn card_charge_of(&self, quote_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "select c.charge_reference from card_payments c
             join purchases p on p.id = c.purchase_id where p.quote_id = $1",
        )
        .bind(quote_id)
        .fetch_optional(&self.writer)
        .await?;
        Ok(row.map(|r| r.try_get("charge_reference")).transpose()?)
    }

    /// Attempts whose payment is not settled (open, whatever they wait on, or lost): how many
    /// and when the oldest began. One unsettled for long is money that may have been taken
    /// without a policy, and what reconciles it is not working.
    pub async fn card_attempts_unsettled_count(
        &self,
    ) -> Result<(i64, Option<chrono::DateTime<chrono::Utc>>), StoreError> {
        let row = sqlx::query(
            "select count(*) as unsettled, min(created_at) as oldest
             from card_attempts where outcome in ('open', 'lost')",
        )
        .fetch_one(&self.pool)
        .await?;
        let oldest: Option<String> = row.try_get("oldest")?;
        Ok((
            row.try_get("unsettled")?,
            oldest
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok())
                .map(|t| t.with_timezone(&chrono::Utc)),
        ))
    }

    /// Card payments waiting on the customer's bank (3-D Secure): attempts still open whose
    /// payment the provider has made, how many and when the oldest began. One that waits for
    /// hours is a customer who left and a webhook that never came.
    pub async fn card_attempts_waiting(
        &self,
    ) -> Result<(i64, Option<chrono::DateTime<chrono::Utc>>), StoreError> {
        let row = sqlx::query(
            "select count(*) as waiting, min(created_at) as oldest
             from card_attempts where outcome = 'open' and payment_id is not null",
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
}
