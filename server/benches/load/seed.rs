//! A full database: stored quotes, copies of a priced one, and their size.

use super::*;

/// Stores `n` more quotes on PostgreSQL: copies of the first priced quote (new ids, references and
/// sessions), each with `per_quote` of its transitions, spread over the last 30 days.
pub(super) async fn seed_quotes(database: &str, n: u64, per_quote: u64) {
    use sqlx::Connection;
    let mut c = sqlx::PgConnection::connect(database)
        .await
        .expect("connect");
    let statements = [
        format!(
            "insert into quotes (id, quote_ref, session_hash, brand, channel, journey, definition_version,
                                 lifecycle, document, row_version, created_at, updated_at)
             select 'seed' || g, 'SEED-' || g, md5('seed' || g), q.brand, q.channel, q.journey,
                    q.definition_version, q.lifecycle, q.document, 1,
                    to_char(now() - (g % 30) * interval '1 day', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),
                    q.updated_at
             from (select * from quotes order by created_at limit 1) q, generate_series(1, {n}) g"
        ),
        format!(
            "insert into step_transitions (quote_id, created_at, definition_version, brand, channel,
                                           journey, event, from_step, to_step, outcome, guards,
                                           field_errors, blocks, duration_us)
             select 'seed' || g, to_char(now() - (g % 30) * interval '1 day', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),
                    t.definition_version, t.brand, t.channel, t.journey, t.event, t.from_step,
                    t.to_step, t.outcome, t.guards, t.field_errors, t.blocks, t.duration_us
             from generate_series(1, {n}) g,
                  (select * from step_transitions order by id limit {per_quote}) t"
        ),
        "analyze".to_owned(),
    ];
    for statement in statements {
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .execute(&mut c)
            .await
            .expect("seed");
    }
    // Closed, and its backend given time to exit, before any measurement starts: the database's
    // CPU a request is the sum over its processes, and a backend exiting during a measurement
    // takes its CPU (the seeding's) out of the sum (the figure came out below zero).
    c.close().await.expect("close the seeding connection");
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// The largest quote document stored, in KB.
pub(super) async fn quote_row_size(database: &str) -> Result<f64, sqlx::Error> {
    use sqlx::Connection;
    let n: i64 = if database.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(database).await?;
        sqlx::query_scalar(
            "SELECT coalesce(max(octet_length(document::text)), 0)::bigint FROM quotes",
        )
        .fetch_one(&mut c)
        .await?
    } else {
        let mut c = sqlx::SqliteConnection::connect(database).await?;
        sqlx::query_scalar("SELECT coalesce(max(length(document)), 0) FROM quotes")
            .fetch_one(&mut c)
            .await?
    };
    Ok(n as f64 / 1024.0)
}
