//! A quote as stored: the row a new quote is written as, and the row read back.

use serde_json::Value;
use sqlx::Row;
use sqlx::any::AnyRow;

use engine::definitions::{BrandId, Channel, JourneyId};
use engine::journey::runtime::Lifecycle;

use crate::store::error::StoreError;

/// A quote the server made whole, before it is stored.
pub struct NewQuote<'a> {
    pub id: &'a str,
    pub quote_ref: &'a str,
    pub brand: &'a str,
    pub channel: Channel,
    pub journey: &'a str,
    pub definition_version: &'a str,
    pub document: &'a Value,
    /// The document the quote started with, before its first event (the replay starts
    /// there): None when that is `document` itself; a quote made by the server's own events (a
    /// comparison site's) gives the one its events started from.
    pub opening: Option<&'a Value>,
}

/// A stored quote.
#[derive(Debug, Clone)]
pub struct QuoteRow {
    pub id: String,
    pub quote_ref: String,
    pub brand: BrandId,
    pub channel: Channel,
    pub journey: JourneyId,
    pub definition_version: String,
    pub lifecycle: Lifecycle,
    pub document: Value,
    pub row_version: i64,
    /// When the quote was made (RFC 3339, UTC): its validity runs from here.
    pub created_at: String,
    /// When the customer last changed or opened it (RFC 3339, UTC): idle time runs from here.
    pub updated_at: String,
    /// How many transitions are recorded for it since it was made (each quote's
    /// history has a ceiling, [`crate::store::Store::history_ceiling`]).
    pub history: i64,
}

impl QuoteRow {
    /// Whether the quote is bought (its policies issued).
    pub fn is_bought(&self) -> bool {
        self.lifecycle == Lifecycle::Purchased
    }
}

pub(crate) fn quote_from_row(row: AnyRow) -> Result<QuoteRow, StoreError> {
    let lifecycle: String = row.try_get("lifecycle")?;
    let channel: String = row.try_get("channel")?;
    let document: String = row.try_get("document")?;
    Ok(QuoteRow {
        id: row.try_get("id")?,
        quote_ref: row.try_get("quote_ref")?,
        brand: row.try_get::<String, _>("brand")?.into(),
        channel: Channel::parse(&channel)
            .ok_or_else(|| StoreError::Corrupt(format!("channel {channel:?}")))?,
        journey: row.try_get::<String, _>("journey")?.into(),
        definition_version: row.try_get("definition_version")?,
        lifecycle: Lifecycle::parse(&lifecycle)
            .ok_or_else(|| StoreError::Corrupt(format!("lifecycle {lifecycle:?}")))?,
        document: {
            let mut document: Value = serde_json::from_str(&document)
                .map_err(|e| StoreError::Corrupt(format!("document: {e}")))?;
            // A quote stored with the whole product table keeps its prices, compact.
            engine::journey::quoting::upgrade_stored(&mut document);
            document
        },
        row_version: row.try_get("row_version")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        history: row.try_get("history")?,
    })
}
