//! Quotes and their sessions: a quote made, found by its session, reference or id, touched,
//! moved to another session or parted from one, and the secrets kept beside it.

use serde_json::Value;
use sqlx::Row;

use engine::journey::runtime::{Lifecycle, TransitionRecord};

use crate::store::db::{Hot, Store, now, timestamp};
use crate::store::error::StoreError;
use crate::store::quote_row::{NewQuote, QuoteRow, quote_from_row};
use crate::store::rows::{INSERT_QUOTE, OwnedQuote, TransitionMeta, TransitionRow};
use crate::store::transitions::transitions_insert;

/// Inserts a new, active quote owned by `session_hash`, within `executor` (the pool, or a
/// transaction that also writes what goes with it).
pub(crate) async fn insert_quote_row<'e, E>(
    executor: E,
    quote: &NewQuote<'_>,
    session_hash: &str,
    now: &str,
) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(INSERT_QUOTE)
        .bind(quote.id)
        .bind(quote.quote_ref)
        .bind(session_hash)
        .bind(quote.brand)
        .bind(quote.channel.as_str())
        .bind(quote.journey)
        .bind(quote.definition_version)
        .bind(Lifecycle::Active.as_str())
        .bind(quote.document.to_string())
        .bind(now)
        .bind(quote.opening.unwrap_or(quote.document).to_string())
        .execute(executor)
        .await?;
    Ok(())
}

/// The first parameter after [`INSERT_QUOTE`]'s eleven.
const AFTER_QUOTE: usize = 12;

/// `sql` (a made quote's insert, then its transitions' from [`AFTER_QUOTE`]) with the quote's
/// and the transitions' parameters bound.
fn bind_made<'q>(
    sql: String,
    stored: &'q OwnedQuote,
    transitions: &'q [TransitionRow],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    let mut query = stored.bind_after(sqlx::query(sqlx::AssertSqlSafe(sql)));
    for transition in transitions {
        query = transition.bind_after(query);
    }
    query
}

/// Joins a quote to a session ($1), as of $2: any quote but a bought one, which stays with the
/// browser that bought it. One statement for every way a quote changes browser.
pub(crate) const ATTACH_SESSION: &str = "update quotes set session_hash = $1, updated_at = $2 where id = $3 and lifecycle <> 'purchased'";

/// A session hash no cookie has: a detached quote keeps the column unique and unfound.
pub(crate) fn detached_marker() -> String {
    use rand::Rng;
    let marker: [u8; 16] = rand::rng().random();
    let marker: String = marker.iter().map(|b| format!("{b:02x}")).collect();
    format!("detached:{marker}")
}

impl Store {
    pub async fn quote_by_session(
        &self,
        session_hash: &str,
    ) -> Result<Option<QuoteRow>, StoreError> {
        // In a group with the other pages' reads (`crate::store::batch`).
        let row = self.read_groups.quote_by_session(session_hash).await?;
        row.map(quote_from_row).transpose()
    }

    #[expect(clippy::too_many_arguments, reason = "one column each")]
    pub async fn insert_quote(
        &self,
        id: &str,
        quote_ref: &str,
        session_hash: &str,
        brand: &str,
        channel: engine::definitions::Channel,
        journey: &str,
        definition_version: &str,
        document: &Value,
    ) -> Result<QuoteRow, StoreError> {
        let now = now();
        let row = QuoteRow {
            id: id.to_owned(),
            quote_ref: quote_ref.to_owned(),
            brand: brand.into(),
            channel,
            journey: journey.into(),
            definition_version: definition_version.to_owned(),
            lifecycle: Lifecycle::Active,
            document: document.clone(),
            row_version: 1,
            created_at: now.clone(),
            updated_at: now,
            history: 0,
        };
        let stored = OwnedQuote::of(&row, session_hash);
        if let Hot::Postgres { conns, .. } = &self.hot {
            // PostgreSQL: one statement, so no transaction around it.
            let mut lease = conns.lease().await?;
            stored.insert(lease.conn()).await?;
            lease.done();
            return Ok(row);
        }
        self.write(move |conn| Box::pin(async move { stored.insert(conn).await }))
            .await?;
        Ok(row)
    }

    /// Moves when a quote was made (test mode's scripted flows: a quote past its validity).
    pub async fn set_created_at(
        &self,
        quote_id: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), StoreError> {
        sqlx::query("update quotes set created_at = $1 where id = $2")
            .bind(timestamp(at))
            .bind(quote_id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Notes that the customer opened the quote (idle time starts again).
    pub async fn touch(&self, quote_id: &str) -> Result<(), StoreError> {
        if let Hot::Postgres { conns, .. } = &self.hot {
            // PostgreSQL: one statement, so no transaction around it.
            let mut lease = conns.lease().await?;
            sqlx::query("update quotes set updated_at = $1 where id = $2")
                .bind(now())
                .bind(quote_id)
                .execute(lease.conn())
                .await?;
            lease.done();
            return Ok(());
        }
        let quote_id = quote_id.to_owned();
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query("update quotes set updated_at = $1 where id = $2")
                    .bind(now())
                    .bind(quote_id)
                    .execute(&mut *conn)
                    .await?;
                Ok(())
            })
        })
        .await
    }

    /// Joins a quote to a session (a retrieved quote, a signed link); whatever session had it
    /// before loses it. A bought quote stays with the browser that bought it: false,
    /// and nothing changes, when the quote is bought (or not there).
    pub async fn attach_session(
        &self,
        quote_id: &str,
        session_hash: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(ATTACH_SESSION)
            .bind(session_hash)
            .bind(now())
            .bind(quote_id)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Moves a session from the quote it has to another (a retrieved quote), in one
    /// transaction: false, and nothing changes, when the other quote is bought.
    pub async fn move_session(
        &self,
        from_quote: &str,
        to_quote: &str,
        session_hash: &str,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query("update quotes set session_hash = $1 where id = $2")
            .bind(detached_marker())
            .bind(from_quote)
            .execute(&mut *tx)
            .await?;
        let done = sqlx::query(ATTACH_SESSION)
            .bind(session_hash)
            .bind(now())
            .bind(to_quote)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Parts a quote from its session: the cookie no longer finds it, and the next request
    /// starts a new quote. The quote itself is kept, with its transitions.
    pub async fn detach_session(&self, quote_id: &str) -> Result<(), StoreError> {
        sqlx::query("update quotes set session_hash = $1 where id = $2")
            .bind(detached_marker())
            .bind(quote_id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// A write-only answer of a quote, as stored (encrypted).
    pub async fn secret(&self, quote_id: &str, field: &str) -> Result<Option<String>, StoreError> {
        let row =
            sqlx::query("select ciphertext from quote_secrets where quote_id = $1 and field = $2")
                .bind(quote_id)
                .bind(field)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|r| r.try_get("ciphertext"))
            .transpose()
            .map_err(Into::into)
    }

    /// A quote by its id.
    pub async fn quote_by_id(&self, id: &str) -> Result<Option<QuoteRow>, StoreError> {
        let row = sqlx::query(select_quote!("id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(quote_from_row).transpose()
    }

    /// Stores a quote made whole by the server (a comparison site's inbound quote), with no
    /// session yet, and the transitions that made it, in one transaction: either all of it is
    /// kept or none.
    pub async fn insert_made_quote(
        &self,
        quote: &NewQuote<'_>,
        records: &[(TransitionRecord, i64)],
    ) -> Result<(), StoreError> {
        let now = now();
        let stored = OwnedQuote::new(quote, &detached_marker(), &now);
        let transitions: Vec<TransitionRow> = records
            .iter()
            .map(|(record, duration_us)| {
                let meta = TransitionMeta {
                    quote_id: quote.id,
                    brand: quote.brand,
                    channel: quote.channel.as_str(),
                    duration_us: *duration_us,
                    experiment_views: &[],
                };
                TransitionRow::of(&now, record, &meta)
            })
            .collect();
        if let Hot::Postgres { groups, .. } = &self.hot
            && !transitions.is_empty()
        {
            // PostgreSQL: the quote and its transitions in one statement, with the other made
            // quotes waiting (`crate::store::batch`).
            return groups.make(stored, transitions).await;
        }
        self.write(move |conn| {
            Box::pin(async move {
                if transitions.is_empty() {
                    return stored.insert(&mut *conn).await;
                }
                // SQLite: the quote and its transitions in one trip to the connection's thread.
                let sql = format!(
                    "{INSERT_QUOTE}; {}",
                    transitions_insert(AFTER_QUOTE, transitions.len())
                );
                bind_made(sql, &stored, &transitions)
                    .execute(&mut *conn)
                    .await?;
                Ok(())
            })
        })
        .await
    }

    /// A quote by the reference the customer sees.
    pub async fn quote_by_ref(&self, quote_ref: &str) -> Result<Option<QuoteRow>, StoreError> {
        let row = sqlx::query(select_quote!("quote_ref = $1"))
            .bind(quote_ref)
            .fetch_optional(&self.pool)
            .await?;
        row.map(quote_from_row).transpose()
    }
}
