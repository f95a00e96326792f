//! Storage over sqlx's Any driver: SQLite by default, PostgreSQL when `DATABASE_URL` says so, each
//! with its own migrations applied at start. `Store` is one type whose methods are written beside
//! what they store (quotes, transitions, purchases, the outbox, the funnel). Most statements are
//! the same on both; where the backends write differently (the hot path: SQLite's one writer
//! committing in groups, PostgreSQL's one-statement writes on connections of their own) a method
//! matches on `db::Hot`, the two paths side by side. The statements' macros are here, before the
//! files that use them.

/// The seventeen columns of a `step_transitions` row a transition writes, in the order
/// [`TransitionRow::bind_after`] binds them (one list for every statement that writes one).
macro_rules! transition_columns {
    () => {
        "quote_id, created_at, definition_version, brand, channel, journey, event, from_step, \
         to_step, outcome, guards, field_errors, blocks, duration_us, pricing, experiment_views, \
         input"
    };
}

/// Runs `$query.$method(executor).await?` on a connection leased from the hot path's reads
/// (given back when it succeeded, closed otherwise): on PostgreSQL these are also its writes.
macro_rules! on_conn {
    ($store:expr, $query:expr, $method:ident) => {{
        let mut lease = $store.reads.lease().await?;
        let out = $query.$method(lease.conn()).await?;
        lease.done();
        out
    }};
}

/// The columns of a quote row `quote_from_row` reads.
macro_rules! quote_columns {
    () => {
        "id, quote_ref, brand, channel, journey, definition_version, lifecycle, document, \
         row_version, created_at, updated_at, history"
    };
}

/// The query reading one quote row (the columns `quote_from_row` reads), with its condition.
macro_rules! select_quote {
    ($condition:literal) => {
        concat!(
            "select ",
            quote_columns!(),
            " from quotes where ",
            $condition
        )
    };
}

pub mod batch;
pub mod card_attempts;
pub mod conns;
pub mod db;
pub mod error;
pub mod events;
pub mod experiments;
pub mod impact;
pub mod outbox;
pub mod pace;
pub mod purchases;
pub mod quote_emails;
pub mod quote_row;
pub mod quotes;
pub mod replay;
pub mod report;
pub mod retention;
pub mod rows;
pub mod staff;
pub mod transitions;
pub mod writer;

pub use card_attempts::*;
pub use db::*;
pub use error::StoreError;
pub use events::*;
pub use outbox::*;
pub use purchases::*;
pub use quote_emails::*;
pub use quote_row::*;
pub use transitions::*;
