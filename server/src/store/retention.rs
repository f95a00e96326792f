//! Keeping only what the law allows: quotes never bought are purged after the
//! retention period, and a data subject's quotes are found for export or erasure.
//!
//! Purging a quote takes out everything personal in one transaction: its answers, its encrypted
//! secrets (bank details, a rehoming certificate), its emails, reminders, links and product
//! views, its transitions' pricing working and what each event carried. What stays
//! is the row's brand, channel, journey and dates, and each transition's steps and outcome, so
//! the funnel still counts it. A bought quote is never purged: its policies, mandate and
//! payments are what an insurer must keep.

use serde_json::{Value, json};
use sqlx::Row;

use crate::store::db::{Store, now};
use crate::store::error::StoreError;

/// A quote the purge or a subject request found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundQuote {
    pub id: String,
    pub quote_ref: String,
    pub bought: bool,
    pub updated_at: String,
}

/// How a data subject is found.
#[derive(Debug, Clone)]
pub enum Subject {
    Reference(String),
    Email(String),
}

impl Subject {
    /// How the request is recorded: a reference as it is, an address only as its digest.
    pub fn recorded(&self) -> String {
        match self {
            Subject::Reference(r) => format!("reference:{r}"),
            Subject::Email(e) => {
                use sha2::{Digest, Sha256};
                let digest = Sha256::digest(e.trim().to_lowercase().as_bytes());
                format!(
                    "email:{}",
                    digest
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect::<String>()
                )
            }
        }
    }
}

/// `%` and `_` in a LIKE pattern taken literally (with `\` as the escape).
fn like_literal(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

fn found(row: &sqlx::any::AnyRow) -> Result<FoundQuote, StoreError> {
    Ok(FoundQuote {
        id: row.try_get("id")?,
        quote_ref: row.try_get("quote_ref")?,
        bought: row.try_get::<i64, _>("bought")? != 0,
        updated_at: row.try_get("updated_at")?,
    })
}

const FOUND_COLUMNS: &str = "q.id, q.quote_ref, q.updated_at,
    (case when exists (select 1 from purchases p where p.quote_id = q.id) then 1 else 0 end) as bought";

impl Store {
    /// Quotes never bought, last changed before `cutoff` and not yet purged: the first made
    /// first, at most `limit`. Found by `created_at` (made before the cutoff, as every quote last
    /// changed before it was), whose index a transition never moves (migration 0016).
    pub async fn purgeable(
        &self,
        cutoff: chrono::DateTime<chrono::Utc>,
        limit: i64,
    ) -> Result<Vec<FoundQuote>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {FOUND_COLUMNS} from quotes q
             where q.purged_at is null and q.lifecycle <> 'purchased'
               and q.created_at < $1 and q.updated_at < $1
               and not exists (select 1 from purchases p where p.quote_id = q.id)
             order by q.created_at limit $2"
        )))
        .bind(crate::store::db::timestamp(cutoff))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(found).collect()
    }

    /// How many quotes [`Store::purgeable`] would find, without a limit.
    pub async fn count_purgeable(
        &self,
        cutoff: chrono::DateTime<chrono::Utc>,
    ) -> Result<u64, StoreError> {
        let (n,): (i64,) = sqlx::query_as(
            "select count(*) from quotes q
             where q.purged_at is null and q.lifecycle <> 'purchased'
               and q.created_at < $1 and q.updated_at < $1
               and not exists (select 1 from purchases p where p.quote_id = q.id)",
        )
        .bind(crate::store::db::timestamp(cutoff))
        .fetch_one(&self.pool)
        .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Purges one quote never bought (see the module's note), in one transaction. False when
    /// there was nothing to purge: already purged, bought meanwhile, or no such quote.
    pub async fn purge_quote(&self, id: &str) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let purged = sqlx::query(
            "update quotes set document = '{}', opening = null, session_hash = 'purged:' || id,
                 quote_ref = 'purged:' || id, purged_at = $1, row_version = row_version + 1,
                 lifecycle = case when lifecycle = 'active' then 'expired' else lifecycle end
             where id = $2 and purged_at is null and lifecycle <> 'purchased'
               and not exists (select 1 from purchases p where p.quote_id = $2)",
        )
        .bind(now())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if purged.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        for statement in [
            "delete from quote_secrets where quote_id = $1",
            "delete from quote_pace where quote_id = $1",
            "delete from card_attempts where quote_id = $1",
            "delete from quote_reminders where quote_id = $1",
            "delete from outbox where quote_id = $1",
            "delete from used_links where quote_id = $1",
            "delete from product_views where quote_id = $1",
            "delete from policy_links where quote_id = $1",
            "update step_transitions set pricing = null, input = null
             where quote_id = $1 and (pricing is not null or input is not null)",
        ] {
            sqlx::query(statement).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The quotes of a data subject: by reference (exactly, as the customer reads it), or by the
    /// email address given in the quote (any case). Purged quotes hold nothing to find.
    pub async fn subject_quotes(&self, subject: &Subject) -> Result<Vec<FoundQuote>, StoreError> {
        match subject {
            Subject::Reference(reference) => {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "select {FOUND_COLUMNS} from quotes q where q.quote_ref = $1"
                )))
                .bind(reference.trim().to_uppercase())
                .fetch_all(&self.pool)
                .await?;
                rows.iter().map(found).collect()
            }
            Subject::Email(email) => {
                let email = email.trim().to_lowercase();
                // The document is compact JSON: the address appears as a string in it. The
                // pattern narrows the rows; each is then checked exactly.
                let pattern = format!("%{}%", like_literal(&email));
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "select {FOUND_COLUMNS}, q.document from quotes q
                     where q.purged_at is null and lower(q.document) like $1 escape '\\'"
                )))
                .bind(pattern)
                .fetch_all(&self.pool)
                .await?;
                let mut quotes = Vec::new();
                for row in &rows {
                    let document: String = row.try_get("document")?;
                    let given = serde_json::from_str::<Value>(&document).ok().and_then(|d| {
                        d.pointer("/owner/email_address")
                            .and_then(Value::as_str)
                            .map(|e| e.trim().to_lowercase())
                    });
                    if given.as_deref() == Some(email.as_str()) {
                        quotes.push(found(row)?);
                    }
                }
                Ok(quotes)
            }
        }
    }

    /// Everything held about one quote, for a subject access request: the answers, which
    /// write-only answers are held (encrypted; named, not shown), the transitions, the emails, and
    /// for a bought quote its policies, mandate (masked) and card payment (last four digits).
    pub async fn export_quote(&self, id: &str) -> Result<Value, StoreError> {
        let quote = sqlx::query(
            "select quote_ref, brand, channel, journey, lifecycle, document, created_at, updated_at
             from quotes where id = $1",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        let document: String = quote.try_get("document")?;
        let secrets: Vec<(String,)> =
            sqlx::query_as("select field from quote_secrets where quote_id = $1 order by field")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        let transitions = sqlx::query(
            "select created_at, event, from_step, to_step, outcome, field_errors, blocks, input
             from step_transitions where quote_id = $1 order by id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|t| {
            let parsed = |name: &str| {
                t.try_get::<String, _>(name)
                    .ok()
                    .and_then(|s| serde_json::from_str::<Value>(&s).ok())
                    .unwrap_or(Value::Null)
            };
            Ok(json!({
                "at": t.try_get::<String, _>("created_at")?,
                "event": t.try_get::<String, _>("event")?,
                "from": t.try_get::<String, _>("from_step")?,
                "to": t.try_get::<String, _>("to_step")?,
                "outcome": t.try_get::<String, _>("outcome")?,
                "field_errors": parsed("field_errors"),
                "blocks": parsed("blocks"),
                "sent": parsed("input"),
            }))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let emails = sqlx::query(
            "select o.kind, o.recipient, o.subject, o.created_at, o.sent_at from outbox o
             left join purchases p on p.id = o.purchase_id
             where o.quote_id = $1 or p.quote_id = $1 order by o.created_at",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|e| {
            Ok(json!({
                "kind": e.try_get::<String, _>("kind")?,
                "to": e.try_get::<String, _>("recipient")?,
                "subject": e.try_get::<String, _>("subject")?,
                "written": e.try_get::<String, _>("created_at")?,
                "sent": e.try_get::<Option<String>, _>("sent_at")?,
            }))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let policies = sqlx::query(
            "select pol.policy_number, pol.pet_name, pol.product_code, pol.monthly_premium,
                    pol.annual_premium, pol.start_date, pol.terminated_at
             from policies pol join purchases p on p.id = pol.purchase_id
             where p.quote_id = $1 order by pol.policy_number",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|p| {
            Ok(json!({
                "policy_number": p.try_get::<String, _>("policy_number")?,
                "pet_name": p.try_get::<String, _>("pet_name")?,
                "product_code": p.try_get::<String, _>("product_code")?,
                "monthly_premium": p.try_get::<String, _>("monthly_premium")?,
                "annual_premium": p.try_get::<String, _>("annual_premium")?,
                "start_date": p.try_get::<String, _>("start_date")?,
                "terminated": p.try_get::<Option<String>, _>("terminated_at")?,
            }))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let mandate = sqlx::query(
            "select m.reference, m.account_name, m.sort_code, m.account_number_masked
             from mandates m join purchases p on p.id = m.purchase_id where p.quote_id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .map(|m| {
            Ok::<_, StoreError>(json!({
                "reference": m.try_get::<String, _>("reference")?,
                "account_name": m.try_get::<String, _>("account_name")?,
                "sort_code": m.try_get::<String, _>("sort_code")?,
                "account_number": m.try_get::<String, _>("account_number_masked")?,
            }))
        })
        .transpose()?;
        let card = sqlx::query(
            "select c.card_name, c.issuer, c.last4, c.expiry, c.amount, c.currency
             from card_payments c join purchases p on p.id = c.purchase_id where p.quote_id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .map(|c| {
            Ok::<_, StoreError>(json!({
                "name_on_card": c.try_get::<String, _>("card_name")?,
                "issuer": c.try_get::<String, _>("issuer")?,
                "last_four_digits": c.try_get::<String, _>("last4")?,
                "expiry": c.try_get::<String, _>("expiry")?,
                "first_payment": format!(
                    "{} {}",
                    c.try_get::<String, _>("amount")?,
                    c.try_get::<String, _>("currency")?
                ),
            }))
        })
        .transpose()?;
        Ok(json!({
            "reference": quote.try_get::<String, _>("quote_ref")?,
            "brand": quote.try_get::<String, _>("brand")?,
            "channel": quote.try_get::<String, _>("channel")?,
            "journey": quote.try_get::<String, _>("journey")?,
            "status": quote.try_get::<String, _>("lifecycle")?,
            "started": quote.try_get::<String, _>("created_at")?,
            "last_changed": quote.try_get::<String, _>("updated_at")?,
            "answers": serde_json::from_str::<Value>(&document).unwrap_or(Value::Null),
            "held_encrypted": secrets.into_iter().map(|(f,)| f).collect::<Vec<_>>(),
            "transitions": transitions,
            "emails": emails,
            "policies": policies,
            "direct_debit": mandate,
            "card": card,
        }))
    }

    /// Records a subject request (what was asked and done), as the law asks it be recorded.
    pub async fn record_data_request(
        &self,
        kind: &str,
        subject: &Subject,
        quotes: usize,
        erased: usize,
        kept: usize,
    ) -> Result<String, StoreError> {
        self.record_data_request_with(kind, subject, [quotes, erased, kept], |_| Vec::new())
            .await
    }

    /// [`Store::record_data_request`], with the policy events `events` makes of the request's
    /// id written in the same transaction (an erasure the insurer is told of).
    pub async fn record_data_request_with(
        &self,
        kind: &str,
        subject: &Subject,
        [quotes, erased, kept]: [usize; 3],
        events: impl FnOnce(&str) -> Vec<crate::store::events::NewEvent>,
    ) -> Result<String, StoreError> {
        let id = crate::store::db::random_id();
        let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let at = now();
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "insert into data_requests (id, kind, matched_by, quotes, erased, kept, created_at)
             values ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&id)
        .bind(kind)
        .bind(subject.recorded())
        .bind(count(quotes))
        .bind(count(erased))
        .bind(count(kept))
        .bind(&at)
        .execute(&mut *tx)
        .await?;
        crate::store::events::insert_events(&mut tx, &events(&id), &at).await?;
        tx.commit().await?;
        Ok(id)
    }
}
