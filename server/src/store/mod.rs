//! Storage: one SQL dialect-neutral code path over sqlx's Any driver, SQLite by default and
//! PostgreSQL when `DATABASE_URL` says so. Migrations per backend are applied at start.

pub mod conns;
pub mod error;
pub mod report;
pub mod writer;

use serde_json::Value;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

use engine::journey::runtime::{Lifecycle, TransitionRecord};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Debug, Clone)]
pub struct Store {
    /// Reads (and on PostgreSQL, writes too).
    pool: AnyPool,
    /// Writes: on SQLite one connection, so writers queue in order (see `connect`); on
    /// PostgreSQL the same pool as reads.
    writer: AnyPool,
    /// SQLite: the hot writes (transitions, new quotes, activity, product views) go through
    /// one connection on a thread of its own, committed in groups (`crate::store::writer`).
    group: Option<crate::store::writer::Writer>,
    /// PostgreSQL: the hot path's connections, one round trip per statement (`crate::store::conns`).
    conns: Option<std::sync::Arc<crate::store::conns::Conns>>,
    /// The hot path's reads (a page's quote, health): `conns` on PostgreSQL, connections of
    /// their own on SQLite. Not sqlx's pool, which checks each connection with a round trip
    /// (on SQLite a hop to the connection's thread and back) every time one goes back to it.
    reads: std::sync::Arc<crate::store::conns::Conns>,
    pub backend: Backend,
}

/// The sixteen columns of a `step_transitions` row a transition writes, in the order
/// [`TransitionRow::bind_after`] binds them (one list for every statement that writes one).
macro_rules! transition_columns {
    () => {
        "quote_id, created_at, definition_version, brand, channel, journey, event, from_step, \
         to_step, outcome, guards, field_errors, blocks, duration_us, pricing, experiment_views"
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

/// Every SQLite connection's settings: WAL lets readers and the writer share the file; a second
/// process on the same file (`pawpath report`) waits out a writer; foreign keys hold.
const SQLITE_PRAGMAS: &[&str] = &[
    "pragma journal_mode = wal",
    "pragma busy_timeout = 5000",
    "pragma foreign_keys = on",
];

use crate::store::conns::IDLE_BEFORE_PING;
pub use crate::store::error::StoreError;

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The query reading one quote row (the columns `quote_from_row` reads), with its condition.
macro_rules! select_quote {
    ($condition:literal) => {
        concat!(
            "select id, quote_ref, brand, channel, journey, definition_version, lifecycle, document, ",
            "row_version, created_at, updated_at from quotes where ",
            $condition
        )
    };
}

/// A quote the server made whole, before it is stored.
pub struct NewQuote<'a> {
    pub id: &'a str,
    pub quote_ref: &'a str,
    pub brand: &'a str,
    pub channel: &'a str,
    pub journey: &'a str,
    pub definition_version: &'a str,
    pub document: &'a Value,
}

/// A stored quote.
#[derive(Debug, Clone)]
pub struct QuoteRow {
    pub id: String,
    pub quote_ref: String,
    pub brand: String,
    pub channel: String,
    pub journey: String,
    pub definition_version: String,
    pub lifecycle: Lifecycle,
    pub document: Value,
    pub row_version: i64,
    /// When the quote was made (RFC 3339, UTC): its validity runs from here.
    pub created_at: String,
    /// When the customer last changed or opened it (RFC 3339, UTC): idle time runs from here.
    pub updated_at: String,
}

/// A purchase to write: the policies, the mandate and its collections.
#[derive(Debug, Clone)]
pub struct NewPurchase {
    pub id: String,
    pub idempotency_key: String,
    pub payment_frequency: String,
    pub payment_day: i64,
    pub cover_start: String,
    pub policies: Vec<PolicyRow>,
    /// How it is paid: a Direct Debit mandate, or a card charged at purchase.
    pub payment: NewPayment,
    /// (due date, amount, payments)
    pub collections: Vec<(String, String, i64)>,
    /// The emails the purchase owes the customer, written to the outbox in its transaction.
    pub emails: Vec<NewEmail>,
}

/// How a purchase is paid.
#[derive(Debug, Clone)]
pub enum NewPayment {
    DirectDebit {
        mandate_reference: String,
        account_name: String,
        sort_code: String,
        account_number_ciphertext: String,
        account_number_masked: String,
    },
    /// Charged through the payment provider before the purchase is written; only what a
    /// receipt shows is kept.
    Card(CardPaymentRow),
    /// Free cover (the rehoming flow's 28 days): nothing to collect.
    Free,
}

/// A card payment as kept (no card number, no CVC).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CardPaymentRow {
    pub provider: String,
    pub charge_reference: String,
    pub amount: String,
    pub currency: String,
    pub card_name: String,
    pub issuer: String,
    pub last4: String,
    pub expiry: String,
}

/// A rendered email for the outbox.
#[derive(Debug, Clone)]
pub struct NewEmail {
    pub id: String,
    pub kind: String,
    pub recipient: String,
    pub sender_name: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
}

/// An outbox row a worker has claimed.
#[derive(Debug, Clone)]
pub struct OutboxRow {
    pub id: String,
    pub recipient: String,
    pub sender_name: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
    pub attempts: i64,
}

/// Where an email stands.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EmailStatus {
    pub requested: bool,
    pub attempts: i64,
    pub sent: bool,
    pub failed: bool,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct PolicyRow {
    pub policy_number: String,
    pub pet_original_id: i64,
    pub pet_name: String,
    pub product_code: String,
    pub monthly_premium: String,
    pub annual_premium: String,
    pub start_date: String,
}

/// A policy with the quote it was bought on (the annual rehoming flow's link).
#[derive(Debug, Clone)]
pub struct LinkedPolicy {
    pub policy_number: String,
    pub pet_name: String,
    pub start_date: String,
    pub terminated: bool,
    pub quote_id: String,
}

/// A stored purchase, as the confirmation page shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PurchaseRow {
    pub id: String,
    pub created_at: String,
    pub payment_frequency: String,
    pub payment_day: i64,
    pub cover_start: String,
    pub policies: Vec<PolicyRow>,
    /// DD, CC, or FREE (free rehoming cover).
    pub payment_method: String,
    /// Direct Debit payers: the mandate's reference and the masked account number.
    pub mandate_reference: Option<String>,
    pub account_number_masked: Option<String>,
    /// Card payers: the card payment.
    pub card: Option<CardPaymentRow>,
    /// (due date, amount, payments), in date order.
    pub collections: Vec<(String, String, i64)>,
    /// Whether the customer has set a pet portal password.
    pub portal_registered: bool,
    /// Whether the confirmation page may still set it: none set yet, and the purchase is at
    /// most [`PORTAL_PASSWORD_WINDOW_MINUTES`] old (issue 21: only the buyer, soon after).
    pub portal_open: bool,
}

/// How long after a purchase its confirmation page may set the pet portal password.
pub const PORTAL_PASSWORD_WINDOW_MINUTES: i64 = 60;

/// Whether a purchase made at `created_at` (RFC 3339) is still within the portal password's
/// window at `now`. A time that does not parse is outside it.
pub fn portal_window_open(created_at: &str, now: chrono::DateTime<chrono::Utc>) -> bool {
    chrono::DateTime::parse_from_rfc3339(created_at).is_ok_and(|at| {
        let age = now.signed_duration_since(at);
        age >= chrono::Duration::zero()
            && age <= chrono::Duration::minutes(PORTAL_PASSWORD_WINDOW_MINUTES)
    })
}

/// How a purchase attempt ended.
#[derive(Debug)]
pub enum PurchaseOutcome {
    Bought,
    /// The quote was already bought (by this request's twin): nothing was written.
    AlreadyBought,
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
            channel: &quote.channel,
            duration_us: i64::try_from(started.elapsed().as_micros()).unwrap_or(i64::MAX),
            experiment_views,
        }
    }
}

impl Store {
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            Backend::Postgres
        };
        let options = |max: u32| {
            AnyPoolOptions::new()
                .max_connections(max)
                // A connection is checked with a round trip only when it has sat idle a while (a
                // database restarted meanwhile); checking every one doubled a request's trips.
                .test_before_acquire(false)
                .before_acquire(|conn, meta| {
                    Box::pin(async move {
                        if meta.idle_for > IDLE_BEFORE_PING {
                            sqlx::Connection::ping(conn).await?;
                        }
                        Ok(true)
                    })
                })
        };
        match backend {
            Backend::Sqlite => {
                // WAL lets readers and the writer share the file. Every write goes through one
                // connection: writers queue for it in order instead of meeting SQLite's lock, whose
                // busy handler sleeps (1 ms, 2 ms, 5 ms, … up to 100 ms a time) and so made the
                // tail of every write the sleep of another's. busy_timeout stays for a second
                // process (`pawpath report`, `terminate-policy`) on the same file.
                let setup = |options: AnyPoolOptions| {
                    options.after_connect(|conn, _| {
                        Box::pin(async move {
                            for pragma in SQLITE_PRAGMAS {
                                sqlx::query(sqlx::AssertSqlSafe(*pragma))
                                    .execute(&mut *conn)
                                    .await?;
                            }
                            Ok(())
                        })
                    })
                };
                let writer = setup(options(1)).connect(url).await?;
                let pool = setup(options(4)).connect(url).await?;
                let group = crate::store::writer::Writer::start(url, SQLITE_PRAGMAS).await?;
                Ok(Self {
                    pool,
                    writer,
                    group: Some(group),
                    conns: None,
                    reads: std::sync::Arc::new(crate::store::conns::Conns::new(
                        url,
                        4,
                        SQLITE_PRAGMAS,
                    )),
                    backend,
                })
            }
            Backend::Postgres => {
                // The hot path (a page's read, a transition, a new or inbound quote, activity)
                // on its own connections; the rest (purchases, retrieval, reports) on sqlx's pool.
                let pool = options(8).connect(url).await?;
                let conns = std::sync::Arc::new(crate::store::conns::Conns::new(url, 16, &[]));
                Ok(Self {
                    writer: pool.clone(),
                    pool,
                    group: None,
                    conns: Some(conns.clone()),
                    reads: conns,
                    backend,
                })
            }
        }
    }

    /// Runs `f`'s statements in a transaction of their own (PostgreSQL) or in the SQLite
    /// writer's group (`crate::store::writer`), and answers once they are committed; an error from `f`
    /// rolls its statements back.
    async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut sqlx::AnyConnection) -> crate::store::writer::WriteFuture<'c, T>
            + Send
            + 'static,
    {
        if let Some(group) = &self.group {
            return group.write(f).await;
        }
        if let Some(conns) = &self.conns {
            use sqlx::Connection as _;
            let mut lease = conns.lease().await?;
            let mut tx = lease.conn().begin().await?;
            let out = match f(&mut tx).await {
                Ok(v) => {
                    tx.commit().await?;
                    Ok(v)
                }
                Err(e) => {
                    tx.rollback().await?;
                    Err(e)
                }
            };
            lease.done();
            return out;
        }
        let mut tx = self.writer.begin().await?;
        match f(&mut tx).await {
            Ok(v) => {
                tx.commit().await?;
                Ok(v)
            }
            Err(e) => {
                tx.rollback().await?;
                Err(e)
            }
        }
    }

    pub async fn migrate(&self) -> Result<(), StoreError> {
        match self.backend {
            Backend::Sqlite => SQLITE_MIGRATIONS.run(&self.writer).await?,
            Backend::Postgres => POSTGRES_MIGRATIONS.run(&self.writer).await?,
        }
        Ok(())
    }

    pub async fn ping(&self) -> Result<(), StoreError> {
        on_conn!(self, sqlx::query("select 1"), execute);
        Ok(())
    }

    pub async fn quote_by_session(
        &self,
        session_hash: &str,
    ) -> Result<Option<QuoteRow>, StoreError> {
        let row = on_conn!(
            self,
            sqlx::query(select_quote!("session_hash = $1")).bind(session_hash),
            fetch_optional
        );
        row.map(quote_from_row).transpose()
    }

    #[expect(clippy::too_many_arguments, reason = "one column each")]
    pub async fn insert_quote(
        &self,
        id: &str,
        quote_ref: &str,
        session_hash: &str,
        brand: &str,
        channel: &str,
        journey: &str,
        definition_version: &str,
        document: &Value,
    ) -> Result<QuoteRow, StoreError> {
        let now = now();
        let row = QuoteRow {
            id: id.to_owned(),
            quote_ref: quote_ref.to_owned(),
            brand: brand.to_owned(),
            channel: channel.to_owned(),
            journey: journey.to_owned(),
            definition_version: definition_version.to_owned(),
            lifecycle: Lifecycle::Active,
            document: document.clone(),
            row_version: 1,
            created_at: now.clone(),
            updated_at: now,
        };
        let stored = OwnedQuote::of(&row, session_hash);
        if let Some(conns) = &self.conns {
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
        if self.group.is_none() && secrets.is_empty() {
            // PostgreSQL: one statement, so one round trip, instead of a transaction's four.
            return self
                .record_in_one(&quote_id, row_version, update, transition, &now)
                .await;
        }
        let secrets = secrets.to_vec();
        self.write(move |conn| {
            Box::pin(async move {
                let mut version = row_version;
                if let Some((document, lifecycle, definition_version)) = update {
                    let done = sqlx::query(
                        "update quotes set document = $1, lifecycle = $2, definition_version = $3,
                                row_version = row_version + 1, updated_at = $4
                         where id = $5 and row_version = $6",
                    )
                    .bind(document)
                    .bind(lifecycle)
                    .bind(definition_version)
                    .bind(&now)
                    .bind(&quote_id)
                    .bind(row_version)
                    .execute(&mut *conn)
                    .await?;
                    if done.rows_affected() != 1 {
                        return Err(StoreError::Conflict);
                    }
                    version += 1;
                }
                // A secret is replaced whole, or only deleted when its answer was withdrawn.
                for (field, ciphertext) in secrets {
                    sqlx::query("delete from quote_secrets where quote_id = $1 and field = $2")
                        .bind(&quote_id)
                        .bind(&field)
                        .execute(&mut *conn)
                        .await?;
                    let Some(ciphertext) = ciphertext else {
                        continue;
                    };
                    sqlx::query(
                        "insert into quote_secrets (quote_id, field, ciphertext, updated_at) values ($1, $2, $3, $4)",
                    )
                    .bind(&quote_id)
                    .bind(field)
                    .bind(ciphertext)
                    .bind(&now)
                    .execute(&mut *conn)
                    .await?;
                }
                transition.insert(conn).await?;
                Ok(version)
            })
        })
        .await
    }

    /// PostgreSQL's `record` without secrets, as one statement (its own transaction): the
    /// quote's update, and the transition row only where the update applied (the quote still
    /// at `row_version`); with no update, the transition row alone.
    async fn record_in_one(
        &self,
        quote_id: &str,
        row_version: i64,
        update: Option<(String, &'static str, String)>,
        transition: TransitionRow,
        now: &str,
    ) -> Result<i64, StoreError> {
        let Some(conns) = &self.conns else {
            return Err(StoreError::Write(
                "one-statement writes are PostgreSQL's".into(),
            ));
        };
        let mut lease = conns.lease().await?;
        let Some((document, lifecycle, definition_version)) = update else {
            transition.insert(lease.conn()).await?;
            lease.done();
            return Ok(row_version);
        };
        let done = transition
            .bind_after(
                sqlx::query(concat!(
                    "with updated as (
                        update quotes set document = $1, lifecycle = $2, definition_version = $3,
                               row_version = row_version + 1, updated_at = $4
                        where id = $5 and row_version = $6 returning id)
                     insert into step_transitions (",
                    transition_columns!(),
                    ")
                     select $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22 from updated",
                ))
                .bind(document)
                .bind(lifecycle)
                .bind(definition_version)
                .bind(now)
                .bind(quote_id)
                .bind(row_version),
            )
            .execute(lease.conn())
            .await?;
        lease.done();
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        Ok(row_version + 1)
    }

    /// Buys a quote, in one transaction: the purchase (one per quote: the unique quote id is the
    /// judge), the quote's new document and lifecycle (optimistic lock), its policies, mandate
    /// and collections, and the transition record. A second purchase of the same quote writes
    /// nothing and answers `AlreadyBought`.
    pub async fn purchase(
        &self,
        quote: &QuoteRow,
        document: &Value,
        record: &TransitionRecord,
        meta: TransitionMeta<'_>,
        p: &NewPurchase,
    ) -> Result<PurchaseOutcome, StoreError> {
        let now = now();
        let mut tx = self.writer.begin().await?;
        let inserted = sqlx::query(
            "insert into purchases (id, quote_id, idempotency_key, created_at, payment_frequency, payment_day, cover_start)
             values ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&p.id)
        .bind(&quote.id)
        .bind(&p.idempotency_key)
        .bind(&now)
        .bind(&p.payment_frequency)
        .bind(p.payment_day)
        .bind(&p.cover_start)
        .execute(&mut *tx)
        .await;
        if let Err(e) = inserted {
            tx.rollback().await?;
            if e.as_database_error()
                .is_some_and(|d| d.is_unique_violation())
            {
                return Ok(PurchaseOutcome::AlreadyBought);
            }
            return Err(e.into());
        }
        let done = sqlx::query(
            "update quotes set document = $1, lifecycle = $2, definition_version = $3,
                    row_version = row_version + 1, updated_at = $4
             where id = $5 and row_version = $6",
        )
        .bind(document.to_string())
        .bind(record.to_lifecycle.as_str())
        .bind(&record.definition_version)
        .bind(&now)
        .bind(&quote.id)
        .bind(quote.row_version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Err(StoreError::Conflict);
        }
        for policy in &p.policies {
            sqlx::query(
                "insert into policies (policy_number, purchase_id, pet_original_id, pet_name, product_code,
                                       monthly_premium, annual_premium, start_date)
                 values ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(&policy.policy_number)
            .bind(&p.id)
            .bind(policy.pet_original_id)
            .bind(&policy.pet_name)
            .bind(&policy.product_code)
            .bind(&policy.monthly_premium)
            .bind(&policy.annual_premium)
            .bind(&policy.start_date)
            .execute(&mut *tx)
            .await?;
        }
        match &p.payment {
            NewPayment::DirectDebit {
                mandate_reference,
                account_name,
                sort_code,
                account_number_ciphertext,
                account_number_masked,
            } => {
                sqlx::query(
                    "insert into mandates (purchase_id, reference, account_name, sort_code, account_number_ciphertext,
                                           account_number_masked, created_at)
                     values ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&p.id)
                .bind(mandate_reference)
                .bind(account_name)
                .bind(sort_code)
                .bind(account_number_ciphertext)
                .bind(account_number_masked)
                .bind(&now)
                .execute(&mut *tx)
                .await?;
            }
            NewPayment::Card(card) => {
                sqlx::query(
                    "insert into card_payments (purchase_id, provider, charge_reference, amount, currency, card_name,
                                                issuer, last4, expiry, created_at)
                     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                )
                .bind(&p.id)
                .bind(&card.provider)
                .bind(&card.charge_reference)
                .bind(&card.amount)
                .bind(&card.currency)
                .bind(&card.card_name)
                .bind(&card.issuer)
                .bind(&card.last4)
                .bind(&card.expiry)
                .bind(&now)
                .execute(&mut *tx)
                .await?;
            }
            NewPayment::Free => {}
        }
        for (due, amount, payments) in &p.collections {
            sqlx::query("insert into collections (purchase_id, due_date, amount, payments) values ($1, $2, $3, $4)")
                .bind(&p.id)
                .bind(due)
                .bind(amount)
                .bind(*payments)
                .execute(&mut *tx)
                .await?;
        }
        for email in &p.emails {
            sqlx::query(
                "insert into outbox (id, purchase_id, kind, recipient, sender_name, subject, body_text, body_html, created_at, next_attempt_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
            )
            .bind(&email.id)
            .bind(&p.id)
            .bind(&email.kind)
            .bind(&email.recipient)
            .bind(&email.sender_name)
            .bind(&email.subject)
            .bind(&email.body_text)
            .bind(&email.body_html)
            .bind(&now)
            .execute(&mut *tx)
            .await?;
        }
        TransitionRow::of(&now, record, &meta)
            .insert(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(PurchaseOutcome::Bought)
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

    /// Marks a purchase's email as asked for by the confirmation page (the first time only) and
    /// answers where it stands; `None` when the purchase owes no such email.
    pub async fn request_email(
        &self,
        purchase_id: &str,
        kind: &str,
    ) -> Result<Option<EmailStatus>, StoreError> {
        sqlx::query(
            "update outbox set requested_at = $1 where purchase_id = $2 and kind = $3 and requested_at is null",
        )
        .bind(now())
        .bind(purchase_id)
        .bind(kind)
        .execute(&self.writer)
        .await?;
        self.email_status(purchase_id, kind).await
    }

    /// Where a purchase's email stands.
    pub async fn email_status(
        &self,
        purchase_id: &str,
        kind: &str,
    ) -> Result<Option<EmailStatus>, StoreError> {
        let Some(row) = sqlx::query(
            "select requested_at, attempts, sent_at, failed_at from outbox where purchase_id = $1 and kind = $2",
        )
        .bind(purchase_id)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        Ok(Some(EmailStatus {
            requested: row.try_get::<Option<String>, _>("requested_at")?.is_some(),
            attempts: row.try_get("attempts")?,
            sent: row.try_get::<Option<String>, _>("sent_at")?.is_some(),
            failed: row.try_get::<Option<String>, _>("failed_at")?.is_some(),
        }))
    }

    /// Claims the next email due for delivery for `lease` (another worker leaves it alone until
    /// then, or until it is marked), or `None` when nothing is due.
    pub async fn claim_email(
        &self,
        lease: chrono::Duration,
    ) -> Result<Option<OutboxRow>, StoreError> {
        loop {
            let now = now();
            let Some(row) = sqlx::query(
                "select id, recipient, sender_name, subject, body_text, body_html, attempts from outbox
                 where sent_at is null and failed_at is null and next_attempt_at <= $1
                   and (locked_until is null or locked_until <= $1)
                 order by next_attempt_at limit 1",
            )
            .bind(&now)
            .fetch_optional(&self.writer)
            .await?
            else {
                return Ok(None);
            };
            let id: String = row.try_get("id")?;
            let claimed = sqlx::query(
                "update outbox set locked_until = $1
                 where id = $2 and sent_at is null and (locked_until is null or locked_until <= $3)",
            )
            .bind(timestamp(chrono::Utc::now() + lease))
            .bind(&id)
            .bind(&now)
            .execute(&self.writer)
            .await?;
            if claimed.rows_affected() == 1 {
                return Ok(Some(OutboxRow {
                    id,
                    recipient: row.try_get("recipient")?,
                    sender_name: row.try_get("sender_name")?,
                    subject: row.try_get("subject")?,
                    body_text: row.try_get("body_text")?,
                    body_html: row.try_get("body_html")?,
                    attempts: row.try_get("attempts")?,
                }));
            }
            // Another worker claimed it between the two statements: look again.
        }
    }

    /// Records a delivered email.
    pub async fn email_sent(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("update outbox set sent_at = $1, attempts = attempts + 1, locked_until = null, last_error = null where id = $2")
            .bind(now())
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Records a failed delivery: tried again at `retry_at`, or never when `retry_at` is `None`
    /// (refused for good).
    pub async fn email_failed(
        &self,
        id: &str,
        error: &str,
        retry_at: Option<chrono::DateTime<chrono::Utc>>,
    ) -> Result<(), StoreError> {
        let now = now();
        sqlx::query(
            "update outbox set attempts = attempts + 1, locked_until = null, last_error = $1,
                    next_attempt_at = $2, failed_at = $3
             where id = $4",
        )
        .bind(error)
        .bind(retry_at.map_or_else(|| now.clone(), timestamp))
        .bind(if retry_at.is_none() {
            Some(now.clone())
        } else {
            None
        })
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The purchase of a quote, if it was bought.
    pub async fn purchase_of(&self, quote_id: &str) -> Result<Option<PurchaseRow>, StoreError> {
        let Some(row) = sqlx::query(
            "select p.id, p.created_at, p.payment_frequency, p.payment_day, p.cover_start, m.reference, m.account_number_masked,
                    c.provider, c.charge_reference, c.amount, c.currency, c.card_name, c.issuer, c.last4, c.expiry,
                    (select count(*) from portal_accounts a where a.purchase_id = p.id) as portal
             from purchases p
             left join mandates m on m.purchase_id = p.id
             left join card_payments c on c.purchase_id = p.id
             where p.quote_id = $1",
        )
        .bind(quote_id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let id: String = row.try_get("id")?;
        let card = match row.try_get::<Option<String>, _>("provider")? {
            Some(provider) => Some(CardPaymentRow {
                provider,
                charge_reference: row.try_get("charge_reference")?,
                amount: row.try_get("amount")?,
                currency: row.try_get("currency")?,
                card_name: row.try_get("card_name")?,
                issuer: row.try_get("issuer")?,
                last4: row.try_get("last4")?,
                expiry: row.try_get("expiry")?,
            }),
            None => None,
        };
        let policies = sqlx::query(
            "select policy_number, pet_original_id, pet_name, product_code, monthly_premium, annual_premium, start_date
             from policies where purchase_id = $1 order by pet_original_id",
        )
        .bind(&id)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| {
            Ok(PolicyRow {
                policy_number: r.try_get("policy_number")?,
                pet_original_id: r.try_get("pet_original_id")?,
                pet_name: r.try_get("pet_name")?,
                product_code: r.try_get("product_code")?,
                monthly_premium: r.try_get("monthly_premium")?,
                annual_premium: r.try_get("annual_premium")?,
                start_date: r.try_get("start_date")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let collections = sqlx::query(
            "select due_date, amount, payments from collections where purchase_id = $1 order by due_date",
        )
        .bind(&id)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| Ok((r.try_get("due_date")?, r.try_get("amount")?, r.try_get("payments")?)))
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let created_at: String = row.try_get("created_at")?;
        let portal_registered = row.try_get::<i64, _>("portal")? > 0;
        Ok(Some(PurchaseRow {
            id,
            portal_open: !portal_registered && portal_window_open(&created_at, chrono::Utc::now()),
            created_at,
            payment_frequency: row.try_get("payment_frequency")?,
            payment_day: row.try_get("payment_day")?,
            cover_start: row.try_get("cover_start")?,
            policies,
            payment_method: match (&card, row.try_get::<Option<String>, _>("reference")?) {
                (Some(_), _) => "CC",
                (None, Some(_)) => "DD",
                (None, None) => "FREE",
            }
            .to_owned(),
            mandate_reference: row.try_get("reference")?,
            account_number_masked: row.try_get("account_number_masked")?,
            card,
            collections,
            portal_registered,
        }))
    }

    /// Stores a pet portal account's password hash; false when the purchase already has one.
    pub async fn register_portal(
        &self,
        purchase_id: &str,
        email: &str,
        hash: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "insert into portal_accounts (purchase_id, email, password_hash, created_at) values ($1, $2, $3, $4)",
        )
        .bind(purchase_id)
        .bind(email)
        .bind(hash)
        .bind(now())
        .execute(&self.writer)
        .await;
        match done {
            Ok(_) => Ok(true),
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                Ok(false)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A purchase's portal password hash (for tests and the portal).
    pub async fn portal_hash(&self, purchase_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("select password_hash from portal_accounts where purchase_id = $1")
            .bind(purchase_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get("password_hash"))
            .transpose()
            .map_err(Into::into)
    }

    /// How many purchases a quote has (for tests: never more than one).
    pub async fn purchase_count(&self, quote_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("select count(*) as n from purchases where quote_id = $1")
            .bind(quote_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Notes that the customer opened the quote (idle time starts again).
    pub async fn touch(&self, quote_id: &str) -> Result<(), StoreError> {
        if let Some(conns) = &self.conns {
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
    /// before loses it. A bought quote stays with the browser that bought it (issue 21): false,
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
        let mut tx = self.writer.begin().await?;
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

    /// Spends a signed link that opens its quote once: true the first time, false ever after
    /// (two clicks at once: one of them). Only the token's digest is kept.
    pub async fn spend_link(&self, token: &str, quote_id: &str) -> Result<bool, StoreError> {
        let digest = crate::session::sha256_hex(token);
        let spent =
            sqlx::query("insert into used_links (digest, quote_id, used_at) values ($1, $2, $3)")
                .bind(digest)
                .bind(quote_id)
                .bind(now())
                .execute(&self.writer)
                .await;
        match spent {
            Ok(_) => Ok(true),
            Err(sqlx::Error::Database(d)) if d.is_unique_violation() => Ok(false),
            Err(e) => Err(e.into()),
        }
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
                    channel: quote.channel,
                    duration_us: *duration_us,
                    experiment_views: &[],
                };
                TransitionRow::of(&now, record, &meta)
            })
            .collect();
        if self.group.is_none() && !transitions.is_empty() {
            // PostgreSQL: the quote and its transitions in one statement (one round trip).
            let sql = format!(
                "with made as ({INSERT_QUOTE} returning id) {}",
                transitions_insert(11, transitions.len(), true)
            );
            let mut query = stored.bind_after(sqlx::query(sqlx::AssertSqlSafe(sql)));
            for transition in transitions {
                query = transition.bind_after(query);
            }
            on_conn!(self, query, execute);
            return Ok(());
        }
        self.write(move |conn| {
            Box::pin(async move {
                stored.insert(&mut *conn).await?;
                if !transitions.is_empty() {
                    let sql = transitions_insert(1, transitions.len(), false);
                    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
                    for transition in transitions {
                        query = transition.bind_after(query);
                    }
                    query.execute(&mut *conn).await?;
                }
                Ok(())
            })
        })
        .await
    }

    /// A policy as its link names it: the policy, the quote it was bought on, and whether it
    /// has been cancelled.
    pub async fn policy(&self, policy_number: &str) -> Result<Option<LinkedPolicy>, StoreError> {
        let row = sqlx::query(
            "select p.policy_number, p.pet_name, p.start_date, p.terminated_at, u.quote_id
             from policies p join purchases u on u.id = p.purchase_id
             where p.policy_number = $1",
        )
        .bind(policy_number)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> Result<LinkedPolicy, sqlx::Error> {
            Ok(LinkedPolicy {
                policy_number: r.try_get("policy_number")?,
                pet_name: r.try_get("pet_name")?,
                start_date: r.try_get("start_date")?,
                terminated: r.try_get::<Option<String>, _>("terminated_at")?.is_some(),
                quote_id: r.try_get("quote_id")?,
            })
        })
        .transpose()
        .map_err(StoreError::from)
    }

    /// Cancels a policy (an operator's `pawpath terminate-policy`): true when it was in force.
    pub async fn terminate_policy(&self, policy_number: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "update policies set terminated_at = $1 where policy_number = $2 and terminated_at is null",
        )
        .bind(now())
        .bind(policy_number)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The quote made from a policy's link, if one was.
    pub async fn linked_quote(&self, policy_number: &str) -> Result<Option<QuoteRow>, StoreError> {
        let row = sqlx::query(select_quote!(
            "id = (select quote_id from policy_links where source_policy = $1)"
        ))
        .bind(policy_number)
        .fetch_optional(&self.pool)
        .await?;
        row.map(quote_from_row).transpose()
    }

    /// Stores a quote made from a policy's link, owned by `session_hash`, with the link, in one
    /// transaction. `Conflict` when the policy already has its quote (two clicks at once): the
    /// caller reads that one.
    pub async fn insert_linked_quote(
        &self,
        quote: &NewQuote<'_>,
        source_policy: &str,
        session_hash: &str,
    ) -> Result<(), StoreError> {
        let now = now();
        let mut tx = self.writer.begin().await?;
        insert_quote_row(&mut *tx, quote, session_hash, &now).await?;
        let linked = sqlx::query(
            "insert into policy_links (source_policy, quote_id, created_at) values ($1, $2, $3)",
        )
        .bind(source_policy)
        .bind(quote.id)
        .bind(&now)
        .execute(&mut *tx)
        .await;
        match linked {
            Ok(_) => {}
            Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
                return Err(StoreError::Conflict);
            }
            Err(e) => return Err(e.into()),
        }
        tx.commit().await?;
        Ok(())
    }

    /// A quote by the reference the customer sees.
    pub async fn quote_by_ref(&self, quote_ref: &str) -> Result<Option<QuoteRow>, StoreError> {
        let row = sqlx::query(select_quote!("quote_ref = $1"))
            .bind(quote_ref)
            .fetch_optional(&self.pool)
            .await?;
        row.map(quote_from_row).transpose()
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
        let mut conditions = vec!["q.journey = $1".to_owned()];
        let mut binds = vec![filter.journey.clone()];
        let (from, to) = filter.bounds();
        for (column, op, value) in [
            ("brand", "=", filter.brand.clone()),
            ("channel", "=", filter.channel.clone()),
            ("created_at", ">=", from),
            ("created_at", "<", to),
        ] {
            if let Some(v) = value {
                binds.push(v);
                conditions.push(format!("q.{column} {op} ${}", binds.len()));
            }
        }
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

    /// Counts one attempt for each key in the window starting at `window_start` (windows of
    /// `window` seconds) and returns, for each key, (attempts in this window, attempts in the
    /// one before); windows before that are forgotten. Kept in the database, so every pawpath
    /// process shares the counts.
    pub async fn count_attempt(
        &self,
        keys: &[String],
        window_start: i64,
        window: i64,
    ) -> Result<Vec<(i64, i64)>, StoreError> {
        let mut tx = self.writer.begin().await?;
        sqlx::query("delete from rate_limits where window_start < $1")
            .bind(window_start - window)
            .execute(&mut *tx)
            .await?;
        let mut counts = Vec::with_capacity(keys.len());
        for key in keys {
            let (hits,): (i64,) = sqlx::query_as(
                "insert into rate_limits (key, window_start, hits) values ($1, $2, 1)
                 on conflict (key, window_start) do update set hits = rate_limits.hits + 1
                 returning hits",
            )
            .bind(key)
            .bind(window_start)
            .fetch_one(&mut *tx)
            .await?;
            let before: Option<(i64,)> =
                sqlx::query_as("select hits from rate_limits where key = $1 and window_start = $2")
                    .bind(key)
                    .bind(window_start - window)
                    .fetch_optional(&mut *tx)
                    .await?;
            counts.push((hits, before.map_or(0, |b| b.0)));
        }
        tx.commit().await?;
        Ok(counts)
    }

    pub async fn close(&self) {
        self.reads.close().await;
        self.pool.close().await;
        self.writer.close().await;
    }
}

/// `insert into step_transitions (…) values (…), (…)`: `rows` rows of the sixteen columns
/// [`TransitionRow::bind_after`] binds, numbered from `$first`. `from_made`: the rows are
/// selected beside the CTE `made` (the quote they belong to, inserted by the same statement).
fn transitions_insert(first: usize, rows: usize, from_made: bool) -> String {
    let mut sql = String::from(concat!(
        "insert into step_transitions (",
        transition_columns!(),
        ") "
    ));
    let values: Vec<String> = (0..rows)
        .map(|r| {
            let params: Vec<String> = (0..16)
                .map(|c| format!("${}", first + r * 16 + c))
                .collect();
            format!("({})", params.join(", "))
        })
        .collect();
    if !from_made {
        sql.push_str("values ");
        sql.push_str(&values.join(", "));
    } else {
        sql.push_str(&format!(
            "select v.* from made, (values {}) as v",
            values.join(", ")
        ));
    }
    sql
}

/// One row of `step_transitions`, every column made ready to bind (so the writer only runs the
/// statement).
struct TransitionRow {
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
}

impl TransitionRow {
    fn of(now: &str, record: &TransitionRecord, meta: &TransitionMeta<'_>) -> Self {
        Self {
            quote_id: meta.quote_id.to_owned(),
            created_at: now.to_owned(),
            definition_version: record.definition_version.clone(),
            brand: meta.brand.to_owned(),
            channel: meta.channel.to_owned(),
            journey: record.journey.clone(),
            event: record.event.clone(),
            from: record.from.clone(),
            to: record.to.clone(),
            outcome: record.outcome.as_str(),
            guards: json(&record.guards),
            field_errors: json(&record.field_errors),
            blocks: json(&record.blocks),
            duration_us: meta.duration_us,
            pricing: record.pricing.as_ref().map(json),
            experiment_views: json(&meta.experiment_views),
        }
    }

    /// Binds the row's sixteen columns after `query`'s own parameters.
    fn bind_after(
        self,
        query: sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments> {
        query
            .bind(self.quote_id)
            .bind(self.created_at)
            .bind(self.definition_version)
            .bind(self.brand)
            .bind(self.channel)
            .bind(self.journey)
            .bind(self.event)
            .bind(self.from)
            .bind(self.to)
            .bind(self.outcome)
            .bind(self.guards)
            .bind(self.field_errors)
            .bind(self.blocks)
            .bind(self.duration_us)
            .bind(self.pricing)
            .bind(self.experiment_views)
    }

    async fn insert<'e, E>(self, executor: E) -> Result<(), StoreError>
    where
        E: sqlx::Executor<'e, Database = sqlx::Any>,
    {
        self.bind_after(sqlx::query(concat!(
            "insert into step_transitions (",
            transition_columns!(),
            ")
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )))
        .execute(executor)
        .await?;
        Ok(())
    }
}

/// A new, active quote's row, every column made ready to bind.
struct OwnedQuote {
    id: String,
    quote_ref: String,
    session_hash: String,
    brand: String,
    channel: String,
    journey: String,
    definition_version: String,
    document: String,
    now: String,
}

impl OwnedQuote {
    fn new(quote: &NewQuote<'_>, session_hash: &str, now: &str) -> Self {
        Self {
            id: quote.id.to_owned(),
            quote_ref: quote.quote_ref.to_owned(),
            session_hash: session_hash.to_owned(),
            brand: quote.brand.to_owned(),
            channel: quote.channel.to_owned(),
            journey: quote.journey.to_owned(),
            definition_version: quote.definition_version.to_owned(),
            document: quote.document.to_string(),
            now: now.to_owned(),
        }
    }

    fn of(row: &QuoteRow, session_hash: &str) -> Self {
        Self::new(
            &NewQuote {
                id: &row.id,
                quote_ref: &row.quote_ref,
                brand: &row.brand,
                channel: &row.channel,
                journey: &row.journey,
                definition_version: &row.definition_version,
                document: &row.document,
            },
            session_hash,
            &row.created_at,
        )
    }

    async fn insert(self, conn: &mut sqlx::AnyConnection) -> Result<(), StoreError> {
        self.bind_after(sqlx::query(INSERT_QUOTE))
            .execute(conn)
            .await?;
        Ok(())
    }

    /// Binds the row's ten parameters (those of [`INSERT_QUOTE`]) after `query`'s own.
    fn bind_after(
        self,
        query: sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments>,
    ) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments> {
        query
            .bind(self.id)
            .bind(self.quote_ref)
            .bind(self.session_hash)
            .bind(self.brand)
            .bind(self.channel)
            .bind(self.journey)
            .bind(self.definition_version)
            .bind(Lifecycle::Active.as_str())
            .bind(self.document)
            .bind(self.now)
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

fn quote_from_row(row: AnyRow) -> Result<QuoteRow, StoreError> {
    let lifecycle: String = row.try_get("lifecycle")?;
    let document: String = row.try_get("document")?;
    Ok(QuoteRow {
        id: row.try_get("id")?,
        quote_ref: row.try_get("quote_ref")?,
        brand: row.try_get("brand")?,
        channel: row.try_get("channel")?,
        journey: row.try_get("journey")?,
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
    })
}

/// A random identifier: 128 bits, URL-safe base64.
pub fn random_id() -> String {
    use base64::Engine as _;
    use rand::Rng;
    let bytes: [u8; 16] = rand::rng().random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A new quote's id: the time it was made in milliseconds (12 hex digits), then 80 random bits
/// (20 hex digits). Never shown to the customer and never enough to find a quote by (a page
/// finds its quote by the session's hash). Ids made later sort after earlier ones, so a new
/// quote's id, and its transitions' `(quote_id, id)`, go at the end of their indexes: a commit
/// writes a few pages there, not one page of each index for each quote in it.
pub fn quote_id() -> String {
    use rand::Rng;
    use std::fmt::Write as _;
    let ms = u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or(0) & 0xffff_ffff_ffff;
    let random: u128 = rand::rng().random::<u128>() >> 48;
    let mut id = String::with_capacity(32);
    let _ = write!(id, "{ms:012x}{random:020x}");
    id
}

/// Inserts a new, active quote owned by `session_hash`, within `executor` (the pool, or a
/// transaction that also writes what goes with it).
async fn insert_quote_row<'e, E>(
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
        .bind(quote.channel)
        .bind(quote.journey)
        .bind(quote.definition_version)
        .bind(Lifecycle::Active.as_str())
        .bind(quote.document.to_string())
        .bind(now)
        .execute(executor)
        .await?;
    Ok(())
}

/// A new, active quote (the columns `OwnedQuote::insert` and `insert_quote_row` bind).
const INSERT_QUOTE: &str =
    "insert into quotes (id, quote_ref, session_hash, brand, channel, journey, definition_version,
                             lifecycle, document, row_version, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $10)";

/// Joins a quote to a session ($1), as of $2: any quote but a bought one, which stays with the
/// browser that bought it (issue 21). One statement for every way a quote changes browser.
const ATTACH_SESSION: &str = "update quotes set session_hash = $1, updated_at = $2 where id = $3 and lifecycle <> 'purchased'";

/// A session hash no cookie has: a detached quote keeps the column unique and unfound.
fn detached_marker() -> String {
    use rand::Rng;
    let marker: [u8; 16] = rand::rng().random();
    let marker: String = marker.iter().map(|b| format!("{b:02x}")).collect();
    format!("detached:{marker}")
}

fn now() -> String {
    timestamp(chrono::Utc::now())
}

/// Every stored timestamp: RFC 3339 in UTC to the microsecond, so that text order is time order.
fn timestamp(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

#[cfg(test)]
mod tests {
    use super::quote_id;

    #[test]
    fn a_quote_id_is_its_time_then_eighty_random_bits_and_later_ids_sort_after() {
        let first = quote_id();
        assert_eq!(first.len(), 32, "{first}");
        assert!(
            first
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        let ms = i64::from_str_radix(&first[..12], 16).expect("hex");
        let now = chrono::Utc::now().timestamp_millis();
        assert!(
            (now - ms).abs() < 60_000,
            "the time it was made: {ms} vs {now}"
        );
        // Made in the same millisecond, two ids still differ (the random part).
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| quote_id()).collect();
        assert_eq!(ids.len(), 1000);
        std::thread::sleep(std::time::Duration::from_millis(2));
        let later = quote_id();
        assert!(later > first, "{later} sorts after {first}");
    }
}
