//! Purchases: one per quote, its policies and payment written in one transaction with the
//! confirmation email; the portal password; policies found, terminated and linked to an annual
//! quote.

use serde_json::Value;
use sqlx::Row;

use engine::journey::runtime::TransitionRecord;

use crate::store::db::{Store, now};
use crate::store::error::StoreError;
use crate::store::outbox::NewEmail;
use crate::store::quote_row::{NewQuote, QuoteRow, quote_from_row};
use crate::store::quotes::insert_quote_row;
use crate::store::rows::{TransitionMeta, TransitionRow};

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
    /// The policy events it owes the insurer (`policy.bought`), written in its transaction.
    pub events: Vec<crate::store::events::NewEvent>,
    /// The hash of the session the bought quote moves to: from the purchase on, only
    /// that session finds it.
    pub session_hash: String,
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
    pub amount: rust_decimal::Decimal,
    pub currency: String,
    pub card_name: String,
    pub issuer: String,
    pub last4: String,
    pub expiry: String,
    /// A monthly payer's card as the provider keeps it for the later payments: the provider's
    /// customer and payment method (never the card number). The insurer's, not the page's.
    #[serde(skip)]
    pub customer_reference: Option<String>,
    #[serde(skip)]
    pub payment_method_reference: Option<String>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct PolicyRow {
    pub policy_number: String,
    pub pet_original_id: i64,
    pub pet_name: String,
    pub product_code: String,
    pub monthly_premium: rust_decimal::Decimal,
    pub annual_premium: rust_decimal::Decimal,
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
    /// most [`PORTAL_PASSWORD_WINDOW_MINUTES`] old (only the buyer, soon after).
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

impl Store {
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
        let mut tx = self.begin_write().await?;
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
                    row_version = row_version + 1, updated_at = $4, session_hash = $5,
                    history = history + 1
             where id = $6 and row_version = $7",
        )
        .bind(document.to_string())
        .bind(record.to_lifecycle.as_str())
        .bind(&record.definition_version)
        .bind(&now)
        .bind(&p.session_hash)
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
            .bind(policy.monthly_premium.to_string())
            .bind(policy.annual_premium.to_string())
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
                                                issuer, last4, expiry, created_at, customer_reference,
                                                payment_method_reference)
                     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                )
                .bind(&p.id)
                .bind(&card.provider)
                .bind(&card.charge_reference)
                .bind(card.amount.to_string())
                .bind(&card.currency)
                .bind(&card.card_name)
                .bind(&card.issuer)
                .bind(&card.last4)
                .bind(&card.expiry)
                .bind(&now)
                .bind(card.customer_reference.as_deref())
                .bind(card.payment_method_reference.as_deref())
                .execute(&mut *tx)
                .await?;
                // The attempt that took it is settled with the purchase, not before: an attempt
                // whose payment was taken but whose purchase did not happen stays unsettled,
                // and is refunded when it is reconciled (`service::card_settle`).
                sqlx::query(
                    "update card_attempts set outcome = 'paid'
                     where quote_id = $1 and payment_id = $2 and outcome in ('open', 'lost')",
                )
                .bind(&quote.id)
                .bind(&card.charge_reference)
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
        crate::store::events::insert_events(&mut tx, &p.events, &now).await?;
        TransitionRow::of(&now, record, &meta)
            .insert(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(PurchaseOutcome::Bought)
    }

    /// The purchase of a quote, if it was bought.
    pub async fn purchase_of(&self, quote_id: &str) -> Result<Option<PurchaseRow>, StoreError> {
        let Some(row) = sqlx::query(
            "select p.id, p.created_at, p.payment_frequency, p.payment_day, p.cover_start, m.reference, m.account_number_masked,
                    c.provider, c.charge_reference, c.amount, c.currency, c.card_name, c.issuer, c.last4, c.expiry,
                    c.customer_reference, c.payment_method_reference,
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
                amount: decimal(&row, "amount")?,
                currency: row.try_get("currency")?,
                card_name: row.try_get("card_name")?,
                issuer: row.try_get("issuer")?,
                last4: row.try_get("last4")?,
                expiry: row.try_get("expiry")?,
                customer_reference: row.try_get("customer_reference")?,
                payment_method_reference: row.try_get("payment_method_reference")?,
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
                monthly_premium: decimal(&r, "monthly_premium")?,
                annual_premium: decimal(&r, "annual_premium")?,
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

    /// Stores a pet portal account's password hash, with the policy event that tells the
    /// insurer, in one transaction; false (and nothing written) when the purchase already has one.
    pub async fn register_portal(
        &self,
        purchase_id: &str,
        email: &str,
        hash: &str,
        event: &crate::store::events::NewEvent,
    ) -> Result<bool, StoreError> {
        let at = now();
        let mut tx = self.begin_write().await?;
        let done = sqlx::query(
            "insert into portal_accounts (purchase_id, email, password_hash, created_at) values ($1, $2, $3, $4)",
        )
        .bind(purchase_id)
        .bind(email)
        .bind(hash)
        .bind(&at)
        .execute(&mut *tx)
        .await;
        match done {
            Ok(_) => {}
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                tx.rollback().await?;
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        }
        crate::store::events::insert_events(&mut tx, std::slice::from_ref(event), &at).await?;
        tx.commit().await?;
        Ok(true)
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

    /// Cancels a policy (an operator's `pawpath terminate-policy`), with the policy event `event`
    /// makes of its purchase's id, in one transaction: true when it was in force.
    pub async fn terminate_policy(
        &self,
        policy_number: &str,
        event: impl FnOnce(&str) -> crate::store::events::NewEvent,
    ) -> Result<bool, StoreError> {
        let at = now();
        let mut tx = self.begin_write().await?;
        let done = sqlx::query(
            "update policies set terminated_at = $1 where policy_number = $2 and terminated_at is null",
        )
        .bind(&at)
        .bind(policy_number)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        let purchase: String =
            sqlx::query_scalar("select purchase_id from policies where policy_number = $1")
                .bind(policy_number)
                .fetch_one(&mut *tx)
                .await?;
        crate::store::events::insert_events(&mut tx, &[event(&purchase)], &at).await?;
        tx.commit().await?;
        Ok(true)
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
        let mut tx = self.begin_write().await?;
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
}

/// An amount stored as its decimal text, read back as the decimal it was (a column that holds
/// anything else is damaged data, named).
fn decimal(row: &sqlx::any::AnyRow, column: &str) -> Result<rust_decimal::Decimal, sqlx::Error> {
    let text: String = row.try_get(column)?;
    text.parse().map_err(|e| sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: Box::new(e),
    })
}
