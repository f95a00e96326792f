//! What the impact report reads: a sample of recent quotes, each with the document it
//! opened with, its transitions and its kept write-only answers (still encrypted), read in
//! groups so a sample of thousands is a few statements, not one per quote. Nothing is written.

use std::collections::HashMap;

use serde_json::Value;
use sqlx::Row as _;

use crate::store::db::Store;
use crate::store::error::StoreError;
use crate::store::replay::LoggedTransition;

/// The most quotes one statement reads the transitions of.
pub const GROUP: usize = 400;

/// A sampled quote, as the report runs it again.
#[derive(Debug, Clone)]
pub struct SampledQuote {
    pub id: String,
    pub quote_ref: String,
    pub brand: String,
    pub channel: String,
    pub journey: String,
    pub created_at: String,
}

/// A sampled quote's opening document, its transitions (at most the `per_quote` first, and
/// whether there were more) and its kept write-only answers as (pointer, ciphertext; the report
/// decrypts them in place, to run their events, and never shows them).
#[derive(Debug, Default)]
pub struct QuoteLog {
    pub opening: Value,
    pub transitions: Vec<LoggedTransition>,
    pub longer: bool,
    pub secrets: Vec<(String, String)>,
}

impl Store {
    /// The `limit` most recent quotes made at or after `since` (RFC 3339) that kept their
    /// opening document and are not purged, newest first: who they are, not what they hold (read
    /// a group at a time by [`Store::impact_logs`]).
    pub async fn impact_sample(
        &self,
        since: &str,
        limit: i64,
    ) -> Result<Vec<SampledQuote>, StoreError> {
        let rows = sqlx::query(
            "select id, quote_ref, brand, channel, journey, created_at from quotes
             where created_at >= $1 and opening is not null and purged_at is null
             order by created_at desc, id limit $2",
        )
        .bind(since)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(SampledQuote {
                    id: row.try_get("id")?,
                    quote_ref: row.try_get("quote_ref")?,
                    brand: row.try_get("brand")?,
                    channel: row.try_get("channel")?,
                    journey: row.try_get("journey")?,
                    created_at: row.try_get("created_at")?,
                })
            })
            .collect()
    }

    /// The logs of a group of at most [`GROUP`] quotes, by quote id: each quote's opening
    /// document, its first `per_quote` transitions in order (a quote with more is marked
    /// `longer`), and its kept write-only answers.
    pub async fn impact_logs(
        &self,
        ids: &[&str],
        per_quote: usize,
    ) -> Result<HashMap<String, QuoteLog>, StoreError> {
        let ids = &ids[..ids.len().min(GROUP)];
        let mut logs: HashMap<String, QuoteLog> = HashMap::new();
        if ids.is_empty() {
            return Ok(logs);
        }
        let params = (1..=ids.len())
            .map(|p| format!("${p}"))
            .collect::<Vec<_>>()
            .join(", ");
        // Each quote's first `per_quote + 1` rows only (the one more says it is longer): a quote
        // at the history ceiling costs no more than one at the bound.
        let sql = format!(
            "select * from (
                 select quote_id, id, created_at, definition_version, event, from_step, to_step,
                        outcome, guards, field_errors, blocks, experiment_views, input,
                        row_number() over (partition by quote_id order by id) as n
                 from step_transitions where quote_id in ({params})
             ) numbered where n <= {} order by quote_id, id",
            per_quote + 1
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for id in ids {
            query = query.bind(*id);
        }
        for row in query.fetch_all(&self.pool).await? {
            let quote: String = row.try_get("quote_id")?;
            let log = logs.entry(quote).or_default();
            if log.transitions.len() >= per_quote {
                log.longer = true;
                continue;
            }
            log.transitions
                .push(crate::store::replay::logged_row(&row, false)?);
        }
        let sql = format!("select id, opening from quotes where id in ({params})");
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for id in ids {
            query = query.bind(*id);
        }
        for row in query.fetch_all(&self.pool).await? {
            let opening: Option<String> = row.try_get("opening")?;
            if let Some(text) = opening {
                logs.entry(row.try_get("id")?).or_default().opening =
                    serde_json::from_str(&text)
                        .map_err(|e| StoreError::Corrupt(format!("opening: {e}")))?;
            }
        }
        let sql = format!(
            "select quote_id, field, ciphertext from quote_secrets where quote_id in ({params})
             order by quote_id, field"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for id in ids {
            query = query.bind(*id);
        }
        for row in query.fetch_all(&self.pool).await? {
            let quote: String = row.try_get("quote_id")?;
            logs.entry(quote)
                .or_default()
                .secrets
                .push((row.try_get("field")?, row.try_get("ciphertext")?));
        }
        Ok(logs)
    }
}

impl Store {
    /// The definitions versions kept, newest first, at most `limit`: (version, kept at).
    pub async fn kept_versions(&self, limit: i64) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query_as(
            "select version, created_at from definitions_versions order by created_at desc limit $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }
}
