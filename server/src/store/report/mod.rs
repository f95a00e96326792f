//! The analysts' funnel (`pawpath report funnel` and the internal funnel page): over the
//! recorded step transitions of the quotes started in a period, per step of a journey, how many
//! quotes entered it, moved on from it, were blocked on it and were left on it, the median time
//! spent on it before moving on, and its commonest field errors. Printed as a table, written as
//! CSV and drawn as an SVG chart.

use serde_json::Value;
use sqlx::Row;

use engine::journey::runtime::Lifecycle;

use crate::store::db::Store;
use crate::store::error::StoreError;

mod funnel;
mod render;

pub use funnel::*;
pub use render::{csv, duration_text, svg, table};

impl Store {
    /// Counts into `funnel` (crate::store::report) the quotes of one journey started in the period
    /// (optionally of one brand and channel) with their transitions, streamed one quote at a
    /// time in one ordered query: memory stays a quote's transitions however long the period.
    /// Field errors are read only from the transitions that have them.
    pub async fn funnel(
        &self,
        filter: &crate::store::report::FunnelFilter,
        funnel: &mut crate::store::report::Funnel<'_>,
    ) -> Result<(), StoreError> {
        use futures_util::TryStreamExt as _;
        let (conditions, binds) = filter.conditions();
        let wanted = conditions.join(" and ");
        // Safe to assemble: fixed column names and placeholders only; every value is bound.
        let sql = format!(
            "select q.id, q.created_at as started_at, q.lifecycle, t.created_at, t.from_step,
                    t.to_step, t.outcome,
                    case when t.outcome = 'invalid' then t.field_errors end as field_errors
             from quotes q left join step_transitions t on t.quote_id = q.id
             where {wanted} order by q.id, t.id"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for b in &binds {
            query = query.bind(b);
        }
        let mut rows = query.fetch(&self.pool);
        let mut quote: Option<crate::store::report::FunnelQuote> = None;
        let mut transitions: Vec<crate::store::report::FunnelTransition> = Vec::new();
        while let Some(r) = rows.try_next().await? {
            let id: String = r.try_get("id")?;
            if quote.as_ref().is_none_or(|q| q.id != id) {
                if let Some(done) = quote.take() {
                    funnel.add(&done, &transitions);
                }
                transitions.clear();
                quote = Some(crate::store::report::FunnelQuote {
                    created_at: r.try_get("started_at")?,
                    purchased: r.try_get::<String, _>("lifecycle")?
                        == Lifecycle::Purchased.as_str(),
                    id,
                });
            }
            // A quote with no transitions comes as one row of nulls after its own columns.
            let Some(from_step) = r.try_get::<Option<String>, _>("from_step")? else {
                continue;
            };
            let errors: Option<String> = r.try_get("field_errors")?;
            transitions.push(crate::store::report::FunnelTransition {
                quote_id: String::new(),
                created_at: r.try_get("created_at")?,
                from_step,
                to_step: r.try_get("to_step")?,
                outcome: r.try_get("outcome")?,
                field_errors: errors
                    .and_then(|e| serde_json::from_str::<Value>(&e).ok())
                    .unwrap_or(Value::Null),
            });
        }
        if let Some(done) = quote {
            funnel.add(&done, &transitions);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;
    use serde_json::json;
    use std::collections::BTreeSet;

    fn t(
        quote: &str,
        at: &str,
        from: &str,
        to: &str,
        outcome: &str,
        errors: Value,
    ) -> FunnelTransition {
        FunnelTransition {
            quote_id: quote.into(),
            created_at: at.into(),
            from_step: from.into(),
            to_step: to.into(),
            outcome: outcome.into(),
            field_errors: errors,
        }
    }

    fn q(id: &str, at: &str, purchased: bool) -> FunnelQuote {
        FunnelQuote {
            id: id.into(),
            created_at: at.into(),
            purchased,
        }
    }

    #[test]
    fn counts_entered_moved_blocked_abandoned_times_and_errors() {
        let steps: Vec<String> = ["pets", "owner", "done"].map(String::from).to_vec();
        let terminal = BTreeSet::from(["done".to_owned()]);
        let quotes = [
            q("a", "2026-11-01T10:00:00.000000Z", true),
            q("b", "2026-11-01T10:00:00.000000Z", false),
            q("c", "2026-11-01T10:00:00.000000Z", false),
        ];
        let err = json!([{ "field": "pets[0].pet_name", "key": "error.required", "params": {} }]);
        let transitions = [
            t(
                "a",
                "2026-11-01T10:01:00.000000Z",
                "pets",
                "owner",
                "moved",
                json!([]),
            ),
            t(
                "a",
                "2026-11-01T10:03:00.000000Z",
                "owner",
                "done",
                "moved",
                json!([]),
            ),
            t(
                "b",
                "2026-11-01T10:00:30.000000Z",
                "pets",
                "pets",
                "invalid",
                err.clone(),
            ),
            t(
                "b",
                "2026-11-01T10:02:00.000000Z",
                "pets",
                "owner",
                "moved",
                json!([]),
            ),
            t(
                "b",
                "2026-11-01T10:04:00.000000Z",
                "owner",
                "owner",
                "blocked",
                json!([]),
            ),
            t(
                "c",
                "2026-11-01T10:00:40.000000Z",
                "pets",
                "pets",
                "invalid",
                err,
            ),
        ];
        let rows = funnel(&steps, "pets", &terminal, &quotes, &transitions);
        assert_eq!(
            (rows[0].entered, rows[0].moved_on, rows[0].abandoned),
            (3, 2, 1)
        );
        assert_eq!(rows[0].median_seconds, Some(90.0), "60 s and 120 s");
        assert_eq!(
            rows[0].top_errors,
            vec![("pets[0].pet_name: error.required".to_owned(), 2)]
        );
        assert_eq!(
            (
                rows[1].entered,
                rows[1].moved_on,
                rows[1].blocked,
                rows[1].abandoned
            ),
            (2, 1, 1, 1)
        );
        assert_eq!(rows[1].median_seconds, Some(120.0));
        assert_eq!(
            (rows[2].entered, rows[2].abandoned),
            (1, 0),
            "done is not abandoned"
        );
        assert!(table(&rows).contains("pets[0].pet_name: error.required (2)"));
        assert!(csv(&rows).starts_with("step,entered,moved_on,blocked,abandoned,median_seconds,commonest_field_errors\r\npets,3,2,0,1,90,"));
        let chart = svg("direct", &rows);
        assert!(chart.contains("3 entered, 2 moved on, 1 left") && chart.ends_with("</svg>\n"));
    }

    #[test]
    fn a_page_left_without_a_transition_counts_as_moved_on() {
        let steps: Vec<String> = ["a", "view", "b", "end"].map(String::from).to_vec();
        let terminal = BTreeSet::from(["end".to_owned()]);
        let quotes = [q("d", "2026-11-01T10:00:00.000000Z", true)];
        let transitions = [
            t(
                "d",
                "2026-11-01T10:01:00.000000Z",
                "a",
                "view",
                "moved",
                json!([]),
            ),
            t(
                "d",
                "2026-11-01T10:05:00.000000Z",
                "b",
                "end",
                "moved",
                json!([]),
            ),
        ];
        let rows = funnel(&steps, "a", &terminal, &quotes, &transitions);
        let counts: Vec<(usize, usize)> = rows.iter().map(|r| (r.entered, r.moved_on)).collect();
        assert_eq!(counts, vec![(1, 1), (1, 1), (1, 1), (1, 0)]);
        assert_eq!(
            rows[1].median_seconds, None,
            "no time without the moment it was left"
        );
    }

    #[test]
    fn periods_are_uk_days() {
        let f = FunnelFilter {
            journey: "direct".into(),
            from: NaiveDate::from_ymd_opt(2026, 7, 1),
            to: NaiveDate::from_ymd_opt(2026, 7, 31),
            ..FunnelFilter::default()
        };
        assert_eq!(
            f.bounds(),
            (
                Some("2026-06-30T23:00:00.000000Z".into()),
                Some("2026-07-31T23:00:00.000000Z".into())
            )
        );
        assert_eq!(duration_text(Some(200.0)), "3m 20s");
        assert_eq!(duration_text(None), "–");
    }
}
