//! The transition log: every event's record written in the same transaction as the quote it
//! changed, and read back for the funnel, the latest pricing and the products viewed.

use serde_json::Value;
use sqlx::Row;

use engine::journey::runtime::{Lifecycle, TransitionRecord};

use crate::store::db::{Hot, Store, now};
use crate::store::error::StoreError;
use crate::store::quote_row::QuoteRow;
pub use crate::store::rows::TransitionMeta;
use crate::store::rows::{TRANSITION_COLUMNS, TransitionRow};

/// A transition's update of its quote: parameters `$1`–`$6`, bound by [`bind_update`]; it
/// applies only where the quote is still at the `row_version` it was read at.
macro_rules! update_quote {
    () => {
        "update quotes set document = $1, lifecycle = $2, definition_version = $3,
                row_version = row_version + 1, updated_at = $4, history = history + 1
         where id = $5 and row_version = $6"
    };
}

/// Counts a transition that leaves the quote as it was (each quote's history has a
/// ceiling); a transition that changes it is counted by its update.
const COUNT_HISTORY: &str = "update quotes set history = history + 1 where id = $1";

/// The transition row's parameters when they follow [`update_quote!`]'s (`$7`–`$23`, bound by
/// [`TransitionRow::bind_after`]).
macro_rules! transition_params_after_update {
    () => {
        "$7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23"
    };
}

/// Binds [`update_quote!`]'s parameters after `query`'s own: the document (as JSON text), the
/// lifecycle and definitions version, when, the quote, and the row version it was read at.
fn bind_update<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    (document, lifecycle, definition_version): (String, &'static str, String),
    now: &'q str,
    quote_id: &'q str,
    row_version: i64,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    query
        .bind(document)
        .bind(lifecycle)
        .bind(definition_version)
        .bind(now)
        .bind(quote_id)
        .bind(row_version)
}

/// `insert into step_transitions (…) values (…), (…)`: `rows` rows of the seventeen columns
/// [`TransitionRow::bind_after`] binds, numbered from `$first`.
pub(crate) fn transitions_insert(first: usize, rows: usize) -> String {
    let values: Vec<String> = (0..rows)
        .map(|r| {
            let params: Vec<String> = (0..TRANSITION_COLUMNS)
                .map(|c| format!("${}", first + r * TRANSITION_COLUMNS + c))
                .collect();
            format!("({})", params.join(", "))
        })
        .collect();
    format!(
        concat!(
            "insert into step_transitions (",
            transition_columns!(),
            ") values {}"
        ),
        values.join(", ")
    )
}

impl Store {
    /// Stores a transition record and, when `update` is given, the quote's new document and
    /// lifecycle, in one transaction. The update only applies if nobody changed the quote since
    /// it was read (`row_version`); otherwise nothing is written and `Conflict` is returned.
    pub async fn record(
        &self,
        quote: &QuoteRow,
        update: Option<(&Value, Lifecycle)>,
        record: &TransitionRecord,
        meta: TransitionMeta<'_>,
        secrets: &[(String, Option<String>)],
    ) -> Result<i64, StoreError> {
        // At the ceiling a quote may still be started again or expire (each ends its changes),
        // and bought (`Store::purchase`), nothing else: its history stays whole, and so its
        // replay, the funnel and the experiments' reports stay true.
        if quote.history >= self.history_ceiling
            && !matches!(record.event.as_str(), "reset" | "expire")
        {
            return Err(StoreError::HistoryFull);
        }
        let written = self
            .write_record(quote, update, record, meta, secrets)
            .await;
        if written.is_ok() {
            crate::metrics::transition(
                &record.journey,
                &record.from,
                &record.event,
                record.outcome.as_str(),
            );
            for block in &record.blocks {
                crate::metrics::blocked(&block.id);
            }
        }
        written
    }

    async fn write_record(
        &self,
        quote: &QuoteRow,
        update: Option<(&Value, Lifecycle)>,
        record: &TransitionRecord,
        meta: TransitionMeta<'_>,
        secrets: &[(String, Option<String>)],
    ) -> Result<i64, StoreError> {
        let now = now();
        // Everything the statements bind is made here, on the request's thread.
        let transition = TransitionRow::of(&now, record, &meta);
        let update = update.map(|(document, lifecycle)| {
            (
                document.to_string(),
                lifecycle.as_str(),
                record.definition_version.clone(),
            )
        });
        let quote_id = quote.id.clone();
        let row_version = quote.row_version;
        if let Hot::Postgres { conns, groups } = &self.hot
            && secrets.is_empty()
        {
            // PostgreSQL: one statement, so one round trip, instead of a transaction's four.
            return Self::record_in_one(
                conns,
                groups,
                &quote_id,
                row_version,
                update,
                transition,
                &now,
            )
            .await;
        }
        let secrets = secrets.to_vec();
        self.write(move |conn| {
            Box::pin(async move {
                let mut version = row_version;
                if let Some((document, lifecycle, definition_version)) = update {
                    if secrets.is_empty() {
                        // SQLite: the update and the transition row in one trip to the
                        // connection's thread instead of two; the row only where the update
                        // applied (the quote still at `row_version`).
                        let done = transition
                            .bind_after(bind_update(
                                sqlx::query(concat!(
                                    update_quote!(),
                                    "; insert into step_transitions (",
                                    transition_columns!(),
                                    ") select ",
                                    transition_params_after_update!(),
                                    " where changes() = 1",
                                )),
                                (document, lifecycle, definition_version),
                                &now,
                                &quote_id,
                                row_version,
                            ))
                            .execute(&mut *conn)
                            .await?;
                        // The quote's row and the transition's, or neither.
                        if done.rows_affected() != 2 {
                            return Err(StoreError::Conflict);
                        }
                        return Ok(version + 1);
                    }
                    let done = bind_update(
                        sqlx::query(update_quote!()),
                        (document, lifecycle, definition_version),
                        &now,
                        &quote_id,
                        row_version,
                    )
                    .execute(&mut *conn)
                    .await?;
                    if done.rows_affected() != 1 {
                        return Err(StoreError::Conflict);
                    }
                    version += 1;
                }
                write_secrets(conn, &quote_id, &secrets, &now).await?;
                if version == row_version {
                    // A transition that changed nothing (refused, or a reload's): counted too.
                    sqlx::query(COUNT_HISTORY)
                        .bind(&quote_id)
                        .execute(&mut *conn)
                        .await?;
                }
                transition.insert(conn).await?;
                Ok(version)
            })
        })
        .await
    }

    /// [`Store::record`] with the policy events the transition owes the insurer written in the
    /// same transaction (a bought quote's preferences changed): the quote's change and its
    /// events, or neither.
    pub async fn record_with_events(
        &self,
        quote: &QuoteRow,
        update: Option<(&Value, Lifecycle)>,
        record: &TransitionRecord,
        meta: TransitionMeta<'_>,
        secrets: &[(String, Option<String>)],
        events: &[crate::store::events::NewEvent],
    ) -> Result<i64, StoreError> {
        if events.is_empty() {
            return self.record(quote, update, record, meta, secrets).await;
        }
        if quote.history >= self.history_ceiling {
            return Err(StoreError::HistoryFull);
        }
        let now = now();
        let transition = TransitionRow::of(&now, record, &meta);
        let mut tx = self.begin_write().await?;
        let mut version = quote.row_version;
        if let Some((document, lifecycle)) = update {
            let done = bind_update(
                sqlx::query(update_quote!()),
                (
                    document.to_string(),
                    lifecycle.as_str(),
                    record.definition_version.clone(),
                ),
                &now,
                &quote.id,
                quote.row_version,
            )
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                tx.rollback().await?;
                return Err(StoreError::Conflict);
            }
            version += 1;
        } else {
            sqlx::query(COUNT_HISTORY)
                .bind(&quote.id)
                .execute(&mut *tx)
                .await?;
        }
        write_secrets(&mut tx, &quote.id, secrets, &now).await?;
        transition.insert(&mut *tx).await?;
        crate::store::events::insert_events(&mut tx, events, &now).await?;
        tx.commit().await?;
        crate::metrics::transition(
            &record.journey,
            &record.from,
            &record.event,
            record.outcome.as_str(),
        );
        Ok(version)
    }

    /// PostgreSQL's `record` without secrets, as one statement (its own transaction): the
    /// quote's update, and the transition row only where the update applied (the quote still
    /// at `row_version`), written in a group with the others waiting (`crate::store::batch`);
    /// with no update, the transition row alone.
    async fn record_in_one(
        conns: &crate::store::conns::Conns,
        groups: &crate::store::batch::Groups,
        quote_id: &str,
        row_version: i64,
        update: Option<(String, &'static str, String)>,
        transition: TransitionRow,
        now: &str,
    ) -> Result<i64, StoreError> {
        let Some(update) = update else {
            let mut lease = conns.lease().await?;
            sqlx::query(COUNT_HISTORY)
                .bind(quote_id)
                .execute(lease.conn())
                .await?;
            transition.insert(lease.conn()).await?;
            lease.done();
            return Ok(row_version);
        };
        groups
            .record(
                quote_id.to_owned(),
                row_version,
                update,
                now.to_owned(),
                transition,
            )
            .await
    }

    /// The working of the quote's prices as last priced: the pricing of its latest transition
    /// that changed them, with when and on which definitions.
    pub async fn latest_pricing(
        &self,
        quote_id: &str,
    ) -> Result<Option<(String, String, Value)>, StoreError> {
        let row = sqlx::query(
            "select created_at, definition_version, pricing from step_transitions
             where quote_id = $1 and pricing is not null order by id desc limit 1",
        )
        .bind(quote_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let pricing: String = row.try_get("pricing")?;
        let pricing = serde_json::from_str(&pricing)
            .map_err(|e| StoreError::Corrupt(format!("pricing: {e}")))?;
        Ok(Some((
            row.try_get("created_at")?,
            row.try_get("definition_version")?,
            pricing,
        )))
    }

    /// Records the products a customer was shown: (pet's original id, product code) pairs.
    pub async fn record_product_views(
        &self,
        quote_id: &str,
        views: &[(i64, String)],
    ) -> Result<(), StoreError> {
        let now = now();
        let quote_id = quote_id.to_owned();
        let views = views.to_vec();
        self.write(move |conn| {
            Box::pin(async move {
                for (pet, code) in views {
                    sqlx::query(
                        "insert into product_views (quote_id, viewed_at, pet_original_id, product_code)
                         values ($1, $2, $3, $4)",
                    )
                    .bind(&quote_id)
                    .bind(&now)
                    .bind(pet)
                    .bind(code)
                    .execute(&mut *conn)
                    .await?;
                }
                Ok(())
            })
        })
        .await
    }

    /// How many product views a quote has recorded (for tests and analysts).
    pub async fn product_view_count(&self, quote_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("select count(*) as n from product_views where quote_id = $1")
            .bind(quote_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// The transitions of one quote, oldest first: (event, from, to, outcome).
    pub async fn transitions(
        &self,
        quote_id: &str,
    ) -> Result<Vec<(String, String, String, String)>, StoreError> {
        let rows = sqlx::query("select event, from_step, to_step, outcome from step_transitions where quote_id = $1 order by id")
            .bind(quote_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }
}

/// Writes a transition's write-only answers, each kept only encrypted: a secret is replaced
/// whole, or only deleted when its answer was withdrawn.
async fn write_secrets(
    conn: &mut sqlx::AnyConnection,
    quote_id: &str,
    secrets: &[(String, Option<String>)],
    now: &str,
) -> Result<(), StoreError> {
    for (field, ciphertext) in secrets {
        sqlx::query("delete from quote_secrets where quote_id = $1 and field = $2")
            .bind(quote_id)
            .bind(field)
            .execute(&mut *conn)
            .await?;
        let Some(ciphertext) = ciphertext else {
            continue;
        };
        sqlx::query(
            "insert into quote_secrets (quote_id, field, ciphertext, updated_at) values ($1, $2, $3, $4)",
        )
        .bind(quote_id)
        .bind(field)
        .bind(ciphertext)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![expect(clippy::unwrap_used, reason = "tests")]
    use super::*;
    use crate::store::quote_row::NewQuote;
    use engine::journey::runtime::Outcome;
    use serde_json::json;

    async fn store() -> (Store, tempfile::TempDir) {
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
        let store = Store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        (store, dir)
    }

    fn record(event: &str) -> TransitionRecord {
        TransitionRecord {
            journey: "direct".into(),
            definition_version: "v1".into(),
            event: event.into(),
            from: "pet_details".into(),
            to: "your_details".into(),
            from_lifecycle: Lifecycle::Active,
            to_lifecycle: Lifecycle::Active,
            outcome: Outcome::Moved,
            guards: Vec::new(),
            field_errors: Vec::new(),
            blocks: Vec::new(),
            pricing: None,
            input: None,
        }
    }

    async fn scalar(store: &Store, sql: &'static str) -> String {
        let row = sqlx::query(sql).fetch_one(&store.pool).await.unwrap();
        row.try_get::<String, _>(0)
            .or_else(|_| row.try_get::<i64, _>(0).map(|n| n.to_string()))
            .unwrap()
    }

    /// On SQLite the quote's update and its transition row go to the database in one statement
    /// list (one trip to the connection's thread): a quote changed since it was read (its
    /// `row_version` moved on) keeps its document and gets no transition row, and the caller
    /// gets a conflict; a quote still as read gets both.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_transition_on_a_changed_quote_writes_neither_row() {
        let (store, _dir) = store().await;
        let quote = store
            .insert_quote(
                "q1",
                "REF1",
                "hash1",
                "pos",
                engine::definitions::Channel::Direct,
                "direct",
                "v1",
                &json!({ "pets": [] }),
            )
            .await
            .unwrap();
        let meta = || TransitionMeta {
            quote_id: "q1",
            brand: "pos",
            channel: "direct",
            duration_us: 1,
            experiment_views: &[],
        };
        let mut stale = quote.clone();
        stale.row_version = 0;
        let changed = json!({ "pets": [{ "pet_name": "Rex" }] });
        let refused = store
            .record(
                &stale,
                Some((&changed, Lifecycle::Active)),
                &record("submit:stale"),
                meta(),
                &[],
            )
            .await;
        assert!(matches!(refused, Err(StoreError::Conflict)), "{refused:?}");
        assert_eq!(
            scalar(&store, "select count(*) from step_transitions").await,
            "0"
        );
        assert_eq!(
            scalar(&store, "select document from quotes").await,
            r#"{"pets":[]}"#
        );
        assert_eq!(scalar(&store, "select row_version from quotes").await, "1");

        let version = store
            .record(
                &quote,
                Some((&changed, Lifecycle::Active)),
                &record("submit:pet_details"),
                meta(),
                &[],
            )
            .await
            .unwrap();
        assert_eq!(version, 2);
        assert_eq!(
            scalar(&store, "select event from step_transitions").await,
            "submit:pet_details"
        );
        assert_eq!(
            scalar(&store, "select document from quotes").await,
            changed.to_string()
        );
        assert_eq!(scalar(&store, "select row_version from quotes").await, "2");
    }

    /// A quote made whole by the server (a comparison site's) and the transitions that made it
    /// go in one statement list on SQLite: all of them, or none when one fails.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_made_quote_and_its_transitions_are_kept_whole_or_not_at_all() {
        let (store, _dir) = store().await;
        let document = json!({ "pets": [] });
        let made = |id: &'static str, quote_ref: &'static str| NewQuote {
            id,
            quote_ref,
            brand: "pos",
            channel: engine::definitions::Channel::Aggregator,
            journey: "aggregator",
            definition_version: "v1",
            document: &document,
            opening: None,
        };
        let records = [
            (record("submit:pet_details"), 5),
            (record("submit:your_details"), 6),
        ];
        store
            .insert_made_quote(&made("q1", "REF1"), &records)
            .await
            .unwrap();
        assert_eq!(scalar(&store, "select count(*) from quotes").await, "1");
        assert_eq!(
            scalar(
                &store,
                "select count(*) from step_transitions where quote_id = 'q1'"
            )
            .await,
            "2"
        );
        // The same reference again: the quote's insert fails, so neither it nor its
        // transitions are kept.
        let refused = store.insert_made_quote(&made("q2", "REF1"), &records).await;
        assert!(refused.is_err());
        assert_eq!(scalar(&store, "select count(*) from quotes").await, "1");
        assert_eq!(
            scalar(&store, "select count(*) from step_transitions").await,
            "2"
        );
    }
}
