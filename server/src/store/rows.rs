//! The rows the hot path writes, every column made ready to bind: a transition's record and a
//! new quote. Below both the store's methods and its group writer (`crate::store::batch`), which
//! bind them.

use engine::journey::runtime::{Lifecycle, TransitionRecord};

use crate::store::error::StoreError;
use crate::store::quote_row::{NewQuote, QuoteRow};

/// A value as the JSON text its column stores.
pub(crate) fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// What the server adds to the engine's transition record.
#[derive(Debug, Clone)]
pub struct TransitionMeta<'a> {
    pub quote_id: &'a str,
    pub brand: &'a str,
    pub channel: &'a str,
    pub duration_us: i64,
    /// The variations the page showed (journey.md §6: experiment views added to payloads).
    pub experiment_views: &'a [String],
}

impl<'a> TransitionMeta<'a> {
    /// A request's transition: its quote, how long it has taken since `started`, and the
    /// variations the page showed.
    pub fn of(
        quote: &'a QuoteRow,
        started: std::time::Instant,
        experiment_views: &'a [String],
    ) -> Self {
        TransitionMeta {
            quote_id: &quote.id,
            brand: &quote.brand,
            channel: quote.channel.as_str(),
            duration_us: i64::try_from(started.elapsed().as_micros()).unwrap_or(i64::MAX),
            experiment_views,
        }
    }
}

/// How many columns [`TransitionRow::bind_after`] binds.
pub(crate) const TRANSITION_COLUMNS: usize = 17;

/// One row of `step_transitions`, every column made ready to bind (so the writer only runs the
/// statement).
pub(crate) struct TransitionRow {
    quote_id: String,
    created_at: String,
    definition_version: String,
    brand: String,
    channel: String,
    journey: String,
    event: String,
    from: String,
    to: String,
    outcome: &'static str,
    guards: String,
    field_errors: String,
    blocks: String,
    duration_us: i64,
    pricing: Option<String>,
    experiment_views: String,
    input: Option<String>,
}

impl TransitionRow {
    pub(crate) fn of(now: &str, record: &TransitionRecord, meta: &TransitionMeta<'_>) -> Self {
        Self {
            quote_id: meta.quote_id.to_owned(),
            created_at: now.to_owned(),
            definition_version: record.definition_version.clone(),
            brand: meta.brand.to_owned(),
            channel: meta.channel.to_owned(),
            journey: record.journey.clone(),
            event: record.event.clone(),
            from: record.from.to_string(),
            to: record.to.to_string(),
            outcome: record.outcome.as_str(),
            guards: json(&record.guards),
            field_errors: json(&record.field_errors),
            blocks: json(&record.blocks),
            duration_us: meta.duration_us,
            pricing: record.pricing.as_ref().map(json),
            experiment_views: json(&meta.experiment_views),
            input: record.input.as_ref().map(json),
        }
    }

    /// Binds the row's seventeen columns after `query`'s own, borrowing them (a group's
    /// statement binds several rows, and writes them again one at a time if it fails).
    pub(crate) fn bind_after<'q>(
        &'q self,
        query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
        query
            .bind(self.quote_id.as_str())
            .bind(self.created_at.as_str())
            .bind(self.definition_version.as_str())
            .bind(self.brand.as_str())
            .bind(self.channel.as_str())
            .bind(self.journey.as_str())
            .bind(self.event.as_str())
            .bind(self.from.as_str())
            .bind(self.to.as_str())
            .bind(self.outcome)
            .bind(self.guards.as_str())
            .bind(self.field_errors.as_str())
            .bind(self.blocks.as_str())
            .bind(self.duration_us)
            .bind(self.pricing.as_deref())
            .bind(self.experiment_views.as_str())
            .bind(self.input.as_deref())
    }

    pub(crate) async fn insert<'e, E>(self, executor: E) -> Result<(), StoreError>
    where
        E: sqlx::Executor<'e, Database = sqlx::Any>,
    {
        self.bind_after(sqlx::query(concat!(
            "insert into step_transitions (",
            transition_columns!(),
            ")
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        )))
        .execute(executor)
        .await?;
        Ok(())
    }
}

/// A new, active quote's row, every column made ready to bind.
pub(crate) struct OwnedQuote {
    id: String,
    quote_ref: String,
    session_hash: String,
    brand: String,
    channel: String,
    journey: String,
    definition_version: String,
    document: String,
    opening: String,
    now: String,
}

impl OwnedQuote {
    pub(crate) fn new(quote: &NewQuote<'_>, session_hash: &str, now: &str) -> Self {
        Self {
            id: quote.id.to_owned(),
            quote_ref: quote.quote_ref.to_owned(),
            session_hash: session_hash.to_owned(),
            brand: quote.brand.to_owned(),
            channel: quote.channel.as_str().to_owned(),
            journey: quote.journey.to_owned(),
            definition_version: quote.definition_version.to_owned(),
            document: quote.document.to_string(),
            opening: quote.opening.unwrap_or(quote.document).to_string(),
            now: now.to_owned(),
        }
    }

    pub(crate) fn of(row: &QuoteRow, session_hash: &str) -> Self {
        Self::new(
            &NewQuote {
                id: &row.id,
                quote_ref: &row.quote_ref,
                brand: &row.brand,
                channel: row.channel,
                journey: &row.journey,
                definition_version: &row.definition_version,
                document: &row.document,
                opening: None,
            },
            session_hash,
            &row.created_at,
        )
    }

    pub(crate) async fn insert(self, conn: &mut sqlx::AnyConnection) -> Result<(), StoreError> {
        self.bind_after(sqlx::query(INSERT_QUOTE))
            .execute(conn)
            .await?;
        Ok(())
    }

    /// Binds the row's eleven parameters (those of [`INSERT_QUOTE`]) after `query`'s own,
    /// borrowing them.
    pub(crate) fn bind_after<'q>(
        &'q self,
        query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
        query
            .bind(self.id.as_str())
            .bind(self.quote_ref.as_str())
            .bind(self.session_hash.as_str())
            .bind(self.brand.as_str())
            .bind(self.channel.as_str())
            .bind(self.journey.as_str())
            .bind(self.definition_version.as_str())
            .bind(Lifecycle::Active.as_str())
            .bind(self.document.as_str())
            .bind(self.now.as_str())
            .bind(self.opening.as_str())
    }
}

/// A new, active quote (the columns `OwnedQuote::insert` and `insert_quote_row` bind).
pub(crate) const INSERT_QUOTE: &str =
    "insert into quotes (id, quote_ref, session_hash, brand, channel, journey, definition_version,
                             lifecycle, document, row_version, created_at, updated_at, opening)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $10, $11)";
