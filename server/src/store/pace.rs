//! Each quote's save allowance, kept with the quote: a token bucket in `quote_pace`, taken from
//! by one atomic statement, so every session and every server spends the same allowance.

use crate::store::db::Store;
use crate::store::error::StoreError;

/// Takes `$5` saves from the quote's bucket (a full `burst` when it has none yet, refilled at
/// `per_second` since it was last taken from): one row changed when it had that many. One
/// statement, which either takes them or changes nothing, so two servers taking at once never
/// both take the last.
const TAKE: &str = "insert into quote_pace (quote_id, tokens, at_ms) values ($1, $2 - $5, $4)
    on conflict (quote_id) do update set
      tokens = (case
          when quote_pace.tokens + (case when $4 > quote_pace.at_ms then $4 - quote_pace.at_ms else 0 end) * $3 > $2 then $2
          else quote_pace.tokens + (case when $4 > quote_pace.at_ms then $4 - quote_pace.at_ms else 0 end) * $3
        end) - $5,
      at_ms = (case when $4 > quote_pace.at_ms then $4 else quote_pace.at_ms end)
    where quote_pace.tokens + (case when $4 > quote_pace.at_ms then $4 - quote_pace.at_ms else 0 end) * $3 >= $5";

impl Store {
    /// `count` saves (at most the burst) from the quote's allowance: true when it had them.
    pub async fn take_saves(
        &self,
        quote_id: &str,
        burst: f64,
        per_second: f64,
        count: u32,
    ) -> Result<bool, StoreError> {
        let now_ms = chrono::Utc::now().timestamp_millis();
        let quote_id = quote_id.to_owned();
        // Through the store's writer: on SQLite, committed with the writes waiting beside it
        // (one connection holds the write lock; a statement of its own would wait on it).
        self.write(move |conn| {
            Box::pin(async move {
                let done = sqlx::query(TAKE)
                    .bind(quote_id)
                    .bind(burst)
                    .bind(per_second / 1000.0)
                    .bind(now_ms)
                    .bind(f64::from(count))
                    .execute(&mut *conn)
                    .await?;
                Ok(done.rows_affected() == 1)
            })
        })
        .await
    }
}
