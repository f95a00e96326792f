//! What the replay reads: every definitions version a server has run, kept so an old
//! quote replays on the definitions it was priced and shown with; a quote's opening document;
//! and its transitions with what each event carried.

use std::io::{Read as _, Write as _};

use base64::Engine as _;
use serde_json::Value;
use sqlx::Row;

use crate::store::db::{Store, now};
use crate::store::error::StoreError;

/// The most a kept definitions version may unpack to. The definitions are about half a megabyte;
/// a stored row that unpacks to more than this is refused, not read into memory.
pub const MAX_DEFINITIONS_BYTES: u64 = 32 * 1024 * 1024;

/// One transition as the log holds it, every column the replay shows or checks.
#[derive(Debug, Clone)]
pub struct LoggedTransition {
    pub id: i64,
    pub created_at: String,
    pub definition_version: String,
    pub event: String,
    pub from: String,
    pub to: String,
    pub outcome: String,
    pub guards: Value,
    pub field_errors: Value,
    pub blocks: Value,
    pub pricing: Option<Value>,
    pub experiment_views: Value,
    pub input: Option<Value>,
}

fn parsed(row: &sqlx::any::AnyRow, column: &str) -> Result<Option<Value>, StoreError> {
    let text: Option<String> = row.try_get(column)?;
    text.map(|t| {
        serde_json::from_str(&t).map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
    })
    .transpose()
}

/// A definitions version's files as stored: a JSON list of [path, text], gzipped, in base64.
fn pack(files: &[(String, String)]) -> Result<String, StoreError> {
    let json = serde_json::to_vec(files).map_err(|e| StoreError::Write(e.to_string()))?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&json)
        .and_then(|()| gz.finish())
        .map(|bytes| base64::engine::general_purpose::STANDARD.encode(bytes))
        .map_err(|e| StoreError::Write(format!("definitions: {e}")))
}

fn unpack(version: &str, packed: &str) -> Result<Vec<(String, String)>, StoreError> {
    let corrupt =
        |why: String| StoreError::Corrupt(format!("definitions version {version}: {why}"));
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(packed)
        .map_err(|e| corrupt(e.to_string()))?;
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .take(MAX_DEFINITIONS_BYTES + 1)
        .read_to_end(&mut json)
        .map_err(|e| corrupt(e.to_string()))?;
    if json.len() as u64 > MAX_DEFINITIONS_BYTES {
        return Err(corrupt(format!(
            "unpacks to more than {MAX_DEFINITIONS_BYTES} bytes"
        )));
    }
    serde_json::from_slice(&json).map_err(|e| corrupt(e.to_string()))
}

impl Store {
    /// Keeps a definitions version's files, once: true when this call stored them, false when
    /// they were kept already (by this server before, or by another).
    pub async fn keep_definitions(
        &self,
        version: &str,
        files: &[(String, String)],
    ) -> Result<bool, StoreError> {
        let (known,): (i64,) =
            sqlx::query_as("select count(*) from definitions_versions where version = $1")
                .bind(version)
                .fetch_one(&self.pool)
                .await?;
        if known > 0 {
            return Ok(false);
        }
        let done = sqlx::query(
            "insert into definitions_versions (version, created_at, files) values ($1, $2, $3)
             on conflict (version) do nothing",
        )
        .bind(version)
        .bind(now())
        .bind(pack(files)?)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The files of a kept definitions version, if it was kept.
    pub async fn definitions_files(
        &self,
        version: &str,
    ) -> Result<Option<Vec<(String, String)>>, StoreError> {
        let row: Option<(String,)> =
            sqlx::query_as("select files from definitions_versions where version = $1")
                .bind(version)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|(packed,)| unpack(version, &packed)).transpose()
    }

    /// The document a quote started with; None for a quote made before it was kept.
    pub async fn opening(&self, quote_id: &str) -> Result<Option<Value>, StoreError> {
        let row = sqlx::query("select opening from quotes where id = $1")
            .bind(quote_id)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => parsed(&row, "opening"),
            None => Ok(None),
        }
    }

    /// The write-only answers a quote keeps (encrypted), by pointer.
    pub async fn secret_fields(&self, quote_id: &str) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> =
            sqlx::query_as("select field from quote_secrets where quote_id = $1 order by field")
                .bind(quote_id)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().map(|(field,)| field).collect())
    }

    /// How many transitions a quote has.
    pub async fn transition_count(&self, quote_id: &str) -> Result<i64, StoreError> {
        let (n,): (i64,) =
            sqlx::query_as("select count(*) from step_transitions where quote_id = $1")
                .bind(quote_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(n)
    }

    /// A quote's transitions in order, at most `limit`, with everything the log kept.
    pub async fn logged_transitions(
        &self,
        quote_id: &str,
        limit: i64,
    ) -> Result<Vec<LoggedTransition>, StoreError> {
        let rows = sqlx::query(
            "select id, created_at, definition_version, event, from_step, to_step, outcome,
                    guards, field_errors, blocks, pricing, experiment_views, input
             from step_transitions where quote_id = $1 order by id limit $2",
        )
        .bind(quote_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| logged_row(row, true)).collect()
    }
}

/// A transition row read back: every column the replay shows or checks (the pricing working
/// only where `pricing` asks for it, and the query selected it).
pub(crate) fn logged_row(
    row: &sqlx::any::AnyRow,
    pricing: bool,
) -> Result<LoggedTransition, StoreError> {
    Ok(LoggedTransition {
        id: row.try_get("id")?,
        created_at: row.try_get("created_at")?,
        definition_version: row.try_get("definition_version")?,
        event: row.try_get("event")?,
        from: row.try_get("from_step")?,
        to: row.try_get("to_step")?,
        outcome: row.try_get("outcome")?,
        guards: parsed(row, "guards")?.unwrap_or(Value::Null),
        field_errors: parsed(row, "field_errors")?.unwrap_or(Value::Null),
        blocks: parsed(row, "blocks")?.unwrap_or(Value::Null),
        pricing: if pricing {
            parsed(row, "pricing")?
        } else {
            None
        },
        experiment_views: parsed(row, "experiment_views")?.unwrap_or(Value::Null),
        input: parsed(row, "input")?,
    })
}
