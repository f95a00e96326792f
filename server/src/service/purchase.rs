//! Buying (owner-payment.md §4 Confirmation): the policies, the Direct Debit mandate and
//! its collection schedule (or the card charged), and the confirmation email, made in one
//! database transaction, exactly once. The route takes the request apart and answers; this is
//! what happens between.

use std::time::Instant;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use chrono::Datelike;
use engine::journey::runtime::{self, Event, Lifecycle, Outcome};
use engine::rules::collections::{Frequency, card_schedule, schedule};

use crate::payments::ProviderError;
use crate::service::caller::Caller;
use crate::service::card_payment::{CardOutcome, Payer, charge_card};
use crate::service::error::FieldMessage;
use crate::service::error::{AppError, Closed};
use crate::service::reply::Reply;

use crate::service::quote::{self, confirmation};
use crate::service::state::AppState;
use crate::store::{
    NewPayment, NewPurchase, PolicyRow, PurchaseOutcome, QuoteRow, StoreError, TransitionMeta,
};

pub const ACCOUNT_NUMBER: &str = "/payment/account_number";

pub use crate::service::card_payment::CARD_TOKEN;

pub enum Attempted {
    Bought,
    /// The card's issuer asks the customer to authenticate (3-D Secure): the browser goes here.
    Authenticate(String),
    /// Another request changed or bought the quote first.
    Raced,
    Refused(AppError),
}

/// POST /api/purchase: `{csrf, idempotency_key}` (a key the page makes for each purchase attempt
/// and sends again on a retry). Answers the confirmation page's view data.
///
/// The purchase moves the quote to a new session (OWASP ASVS 3.2.1), made from the
/// buying session and the key ([`crate::session::SessionToken::after_purchase`]): the answer sets its cookie, and
/// the cookie that bought finds nothing from then on, so a session planted in the customer's
/// browser before they started sees nothing of what they bought and cannot set their portal
/// password. Every request of the purchase (twins, the buyer's retry whose answer was lost) is
/// answered with the same purchase and the same new session.
pub async fn purchase(
    state: &AppState,
    caller: &Caller,
    body: &serde_json::Map<String, Value>,
) -> Result<Reply, AppError> {
    let started = Instant::now();
    let key = idempotency_key(body)?;
    let returned = crate::service::card_payment::returned_payment(body)?;
    let crate::service::transition::Authorised {
        mut quote,
        token,
        experiment_views,
    } = match crate::service::transition::authorise(
        state,
        caller,
        body,
        &["idempotency_key", "payment_return"],
    )
    .await
    {
        Ok(auth) => auth,
        Err(AppError::Csrf) => return bought_elsewhere(state, caller, body, &key).await,
        Err(e) => return Err(e),
    };
    // This session is the buyer's since the purchase: the same answer, nothing changes.
    if quote.lifecycle == Lifecycle::Purchased {
        return confirmation(state, &quote, &token).await;
    }
    let next = token.after_purchase(&state.config.secret_key, &key);
    for _ in 0..5 {
        match attempt(
            state,
            &quote,
            &key,
            &next.hash(),
            &experiment_views,
            Buyer::Customer {
                returned: returned.as_deref(),
            },
            started,
        )
        .await?
        {
            Attempted::Bought | Attempted::Raced => {}
            Attempted::Authenticate(url) => return authenticate(&url),
            Attempted::Refused(e) => return Err(e),
        }
        // Bought here or by a twin request with the same key (so the same new session), or
        // changed meanwhile: read it again where the purchase put it.
        if let Some(bought) = state.store.quote_by_session(&next.hash()).await?
            && bought.lifecycle == Lifecycle::Purchased
        {
            return with_session(state, &bought, &next).await;
        }
        quote = state
            .store
            .quote_by_id(&quote.id)
            .await?
            .ok_or(AppError::NotFound)?;
        if quote.lifecycle == Lifecycle::Purchased {
            // Bought with another key (another tab's attempt): that attempt's session has it.
            return Err(AppError::Conflict);
        }
    }
    Err(AppError::Internal(format!(
        "quote {}: purchase kept conflicting",
        quote.id
    )))
}

/// The page's `idempotency_key`: 8 to 100 letters, digits or hyphens.
fn idempotency_key(body: &serde_json::Map<String, Value>) -> Result<String, AppError> {
    body.get("idempotency_key")
        .and_then(Value::as_str)
        .filter(|k| {
            (8..=100).contains(&k.len())
                && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
        .map(str::to_owned)
        .ok_or_else(|| {
            AppError::BadRequest(
                "idempotency_key must be 8 to 100 letters, digits or hyphens".into(),
            )
        })
}

/// A purchase call whose session finds no quote to buy, or whose token is not its session's:
/// a request of a purchase already made. From the session that bought, with its own CSRF token
/// and the purchase's key (a retry whose answer was lost): answered as the purchase was. From
/// the bought session with the page's earlier token (a double click's twin, sent after the new
/// cookie arrived): the confirmation, as GET /api/confirmation reads it. Anything else is the
/// CSRF refusal it was. Nothing changes either way.
async fn bought_elsewhere(
    state: &AppState,
    caller: &Caller,
    body: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Reply, AppError> {
    let Some(cookie) = &caller.session else {
        return Err(AppError::Csrf);
    };
    if let Some((quote, token)) = quote::existing(state, caller).await?
        && quote.lifecycle == Lifecycle::Purchased
    {
        return confirmation(state, &quote, &token).await;
    }
    let csrf = body.get("csrf").and_then(Value::as_str).unwrap_or_default();
    if !cookie.csrf_matches(&state.config.secret_key, csrf) {
        return Err(AppError::Csrf);
    }
    let next = cookie.after_purchase(&state.config.secret_key, key);
    match state.store.quote_by_session(&next.hash()).await? {
        Some(bought) if bought.lifecycle == Lifecycle::Purchased => {
            with_session(state, &bought, &next).await
        }
        _ => Err(AppError::Csrf),
    }
}

/// The confirmation for a quote bought into `session`, with the cookie that carries it.
async fn with_session(
    state: &AppState,
    quote: &QuoteRow,
    session: &crate::session::SessionToken,
) -> Result<Reply, AppError> {
    Ok(confirmation(state, quote, session)
        .await?
        .joining(state, session))
}

/// The answer that sends the browser to the card issuer's 3-D Secure challenge: `{next_action:
/// {redirect_url}}`, and no view (the quote is not bought yet).
fn authenticate(url: &str) -> Result<Reply, AppError> {
    Reply::json(&json!({ "next_action": { "type": "redirect", "redirect_url": url } }))
}

/// Who asks for the purchase: the customer's own request (with the card payment their browser
/// has come back from a 3-D Secure challenge with, if it has), which may begin a card payment;
/// or the provider's outcome (its webhook, the bank's return, the reconciliation), which only
/// completes one begun.
#[derive(Debug, Clone, Copy)]
pub enum Buyer<'a> {
    Customer { returned: Option<&'a str> },
    Provider,
}

/// Buys the quote (see [`buy`]) for `by`, counting the outcome for `/metrics`.
pub async fn attempt(
    state: &AppState,
    quote: &QuoteRow,
    key: &str,
    session_hash: &str,
    experiment_views: &[String],
    by: Buyer<'_>,
    started: Instant,
) -> Result<Attempted, AppError> {
    let (returned, present) = match by {
        Buyer::Customer { returned } => (returned, true),
        Buyer::Provider => (None, false),
    };
    let payer = Payer {
        key,
        session_hash,
        returned,
        return_url: String::new(),
        present,
    };
    let attempted = buy(state, quote, payer, experiment_views, started).await;
    let method = match quote
        .document
        .pointer("/payment/payment_method")
        .and_then(Value::as_str)
    {
        Some("CC") => "card",
        Some("DD") => "direct_debit",
        _ => "none",
    };
    let outcome = match &attempted {
        Ok(Attempted::Bought) => "bought",
        Ok(Attempted::Authenticate(_)) => "authenticating",
        Ok(Attempted::Raced) => "raced",
        Ok(Attempted::Refused(_)) => "refused",
        Err(_) => "failed",
    };
    crate::metrics::purchase(&quote.journey, method, outcome);
    attempted
}

async fn buy(
    state: &AppState,
    quote: &QuoteRow,
    payer: Payer<'_>,
    experiment_views: &[String],
    started: Instant,
) -> Result<Attempted, AppError> {
    let journey = quote::journey(state, quote)?;
    let rules = quote::rule_context(state, quote);
    let result = runtime::transition(
        &state.defs,
        &journey.id,
        &quote.document,
        quote.lifecycle,
        &Event::Purchase,
        rules.clone(),
    )?;
    match result.record.outcome {
        Outcome::Moved => {}
        Outcome::RefusedByLifecycle => return Ok(Attempted::Refused(AppError::QuoteClosed)),
        _ => {
            // The refusal is a transition like any other: the log shows it.
            let meta = TransitionMeta::of(quote, started, experiment_views);
            state
                .store
                .record(quote, None, &result.record, meta, &[])
                .await?;
            return Ok(Attempted::Refused(AppError::StepClosed(Closed::Purchase {
                step: result.record.from.to_string(),
                guards: result.record.failed_guards(),
            })));
        }
    }
    let document = &result.document;
    // Sanctions screening, before anything is charged or issued.
    if let Some(refused) = crate::service::screening::refer_if_listed(
        state,
        quote,
        document,
        &result.record,
        started,
        experiment_views,
    )
    .await?
    {
        return Ok(Attempted::Refused(refused));
    }
    let payment = document.get("payment").cloned().unwrap_or(json!({}));
    let text = |name: &str| {
        payment
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let frequency = text("payment_frequency");
    let by_card = text("payment_method") == "CC";
    let start = engine::rules::domain::cover_start(document, &rules);
    let summary = engine::journey::quoting::summary(document);
    let (freq, amount) = if frequency == "AP" {
        (Frequency::Annual, summary.annual)
    } else {
        (Frequency::Monthly, summary.monthly)
    };
    // A Direct Debit payer's account number, for the insurer's event (sealed to its key there).
    let mut account_number = None;
    let (payment, plan, day) = if by_card {
        // The customer's bank sends the browser back here after a 3-D Secure challenge.
        let payer = Payer {
            return_url: format!(
                "{}/payments/return",
                state.config.public_url.trim_end_matches('/')
            ),
            ..payer
        };
        let recurring = freq == Frequency::Monthly;
        let card = match charge_card(state, quote, &text, amount, recurring, &payer).await? {
            CardOutcome::Paid(card) => card,
            CardOutcome::Authenticate(url) => return Ok(Attempted::Authenticate(url)),
            CardOutcome::Refused(refused) => return Ok(Attempted::Refused(refused)),
        };
        let plan = card_schedule(rules.today, freq, amount);
        let day = i64::from(rules.today.day().min(28));
        (NewPayment::Card(card), plan, day)
    } else {
        let Some((mandate, number)) = mandate(state, quote, &payment).await? else {
            return Ok(Attempted::Refused(AppError::BadRequest(
                "the quote has no bank details to buy with".into(),
            )));
        };
        account_number = Some(number);
        let day = payment
            .get("payment_day")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        let plan = schedule(
            rules.today,
            start,
            u32::try_from(day).unwrap_or(1),
            freq,
            amount,
            &state.holidays,
        );
        (mandate, plan, day)
    };
    let policies = policy_rows(state, quote, document, start);
    let terms = Terms {
        plan: &plan,
        start,
        frequency: &frequency,
        payment: &payment,
    };
    let email = render_confirmation_email(state, quote, document, &policies, &terms)?;
    let mut purchase = NewPurchase {
        id: crate::store::random_id(),
        // Scoped to its quote: a key another quote used is no business of this one.
        idempotency_key: format!("{}:{}", quote.id, payer.key),
        payment_frequency: frequency,
        payment_day: day,
        cover_start: start.to_string(),
        policies,
        payment,
        collections: plan
            .iter()
            .map(|c| {
                (
                    c.date.to_string(),
                    c.amount.to_string(),
                    i64::from(c.payments),
                )
            })
            .collect(),
        emails: vec![email],
        events: Vec::new(),
        session_hash: payer.session_hash.to_owned(),
    };
    let event = crate::service::policy_events::bought(
        state,
        quote,
        document,
        &purchase,
        account_number.as_deref(),
    )?;
    purchase.events.push(event);
    let meta = TransitionMeta::of(quote, started, experiment_views);
    match state
        .store
        .purchase(quote, document, &result.record, meta, &purchase)
        .await
    {
        Ok(PurchaseOutcome::Bought) => {
            tracing::info!(quote = %quote.id, policies = purchase.policies.len(), "purchase");
            state.mailer.wake();
            state.events.wake();
            Ok(Attempted::Bought)
        }
        Ok(PurchaseOutcome::AlreadyBought) | Err(StoreError::Conflict) => Ok(Attempted::Raced),
        Err(e) => Err(e.into()),
    }
}

/// A Direct Debit payer's mandate, and their account number for the insurer's event (sealed to
/// its key there); `None` when the quote holds no bank details.
async fn mandate(
    state: &AppState,
    quote: &QuoteRow,
    payment: &Value,
) -> Result<Option<(NewPayment, String)>, AppError> {
    let Some(ciphertext) = state.store.secret(&quote.id, ACCOUNT_NUMBER).await? else {
        return Ok(None);
    };
    let account_number = state
        .config
        .encryption_key
        .decrypt(&quote.id, ACCOUNT_NUMBER, &ciphertext)
        .map_err(|e| AppError::Internal(format!("the account number: {e}")))?;
    let text = |name: &str| {
        payment
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let mandate = NewPayment::DirectDebit {
        mandate_reference: format!("{}-DD", quote.quote_ref),
        account_name: text("account_name"),
        sort_code: text("sort_code"),
        account_number_ciphertext: ciphertext,
        account_number_masked: text("account_number_masked"),
    };
    Ok(Some((mandate, account_number)))
}

/// A policy for each pet, numbered in the brand's series, at the premiums as quoted.
fn policy_rows(
    state: &AppState,
    quote: &QuoteRow,
    document: &Value,
    start: chrono::NaiveDate,
) -> Vec<PolicyRow> {
    let quoted = engine::journey::quoting::Quoted::of(document);
    document
        .get("pets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, pet)| {
            let code = pet
                .pointer("/product/Code")
                .and_then(Value::as_str)
                .unwrap_or_default();
            // The premiums as quoted (the pets' products are priced, or the purchase's guards
            // would have refused it).
            let premiums = quoted.as_ref().and_then(|q| q.premiums(i, code));
            let money = |pick: fn(&engine::journey::quoting::Premiums) -> Decimal| {
                premiums.map_or(Decimal::ZERO, pick)
            };
            PolicyRow {
                policy_number: state.policies.new_number(&quote.brand),
                pet_original_id: pet.get("original_id").and_then(Value::as_i64).unwrap_or(0),
                pet_name: pet
                    .get("pet_name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                product_code: code.to_owned(),
                monthly_premium: money(engine::journey::quoting::Premiums::monthly),
                annual_premium: money(engine::journey::quoting::Premiums::annual),
                start_date: start.to_string(),
            }
        })
        .collect()
}

/// How many collections the confirmation email lists (the advance notice of the first ones).
pub const EMAIL_COLLECTIONS: usize = 3;

/// How a purchase is paid, as its email tells it.
pub struct Terms<'a> {
    plan: &'a [engine::rules::collections::Collection],
    start: chrono::NaiveDate,
    frequency: &'a str,
    payment: &'a NewPayment,
}

/// The confirmation email a purchase owes, rendered for the outbox.
pub fn render_confirmation_email(
    state: &AppState,
    quote: &QuoteRow,
    document: &Value,
    policies: &[PolicyRow],
    terms: &Terms<'_>,
) -> Result<crate::store::NewEmail, AppError> {
    let Terms {
        plan,
        start,
        frequency,
        payment,
    } = *terms;
    use crate::mail::{CardLines, ConfirmationEmail, DocumentLink, MandateLines, PetLine};
    let uk = |d: chrono::NaiveDate| d.format("%d/%m/%Y").to_string();
    let voice = quote::voice(state, quote);
    let money = voice.money();
    let field = |pointer: &str| {
        document
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let yearly = frequency == "AP";
    let pets_json = document
        .get("pets")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let base = state.config.public_url.trim_end_matches('/');
    let mut total = Decimal::ZERO;
    let pets = policies
        .iter()
        .map(|policy| {
            let pet = pets_json.iter().find(|p| {
                p.get("original_id").and_then(Value::as_i64) == Some(policy.pet_original_id)
            });
            // The cover type and the vet fee limit, read from the product code (LT04000).
            let code = policy.product_code.as_str();
            let group = code.get(..2).unwrap_or_default();
            let limit = code
                .get(2..)
                .and_then(|l| l.parse::<u32>().ok())
                .map(|l| money.amount(Decimal::from(l)))
                .unwrap_or_default();
            let premium = if yearly {
                policy.annual_premium
            } else {
                policy.monthly_premium
            };
            total += premium;
            let species = pet
                .and_then(|p| p.get("pet_type"))
                .and_then(Value::as_str)
                .and_then(engine::definitions::Species::parse);
            let documents = match (state.defs.documents(), species) {
                (Some(docs), Some(species)) => docs
                    .for_product(species, &policy.product_code, start)
                    .into_iter()
                    .map(|g| DocumentLink {
                        title: voice.t(g.title),
                        url: format!("{base}/quote/documents/{}", g.name),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            PetLine {
                name: policy.pet_name.clone(),
                policy_number: policy.policy_number.clone(),
                cover: voice.text(
                    "review.pet.cover",
                    &[
                        (
                            "type".to_owned(),
                            voice.t(&format!("cover.type.{}", group.to_lowercase())),
                        ),
                        ("limit".to_owned(), limit),
                    ]
                    .into(),
                ),
                premium: money.price(premium),
                liability: pet.and_then(|p| crate::service::reminders::liability_key(state, p)),
                documents,
            }
        })
        .collect();
    let premiums: Vec<_> = policies.iter().map(|p| p.annual_premium).collect();
    let nectar =
        engine::rules::domain::nectar_bonus(&state.defs, &quote.document, &premiums).map(|b| {
            crate::mail::NectarLines {
                points: money.count(u64::from(b.points)),
                card_last4: b.card_last4,
                capped_at: b.capped.then(|| money.count(u64::from(b.cap))),
            }
        });
    let message = ConfirmationEmail {
        brand_code: quote.brand.clone(),
        language: voice.language().to_owned(),
        first_name: field("/owner/customer_first_name"),
        quote_reference: quote.quote_ref.clone(),
        cover_start: uk(start),
        frequency: if yearly { "AP" } else { "MP" }.to_owned(),
        pets,
        total: money.price(total),
        mandate: match payment {
            NewPayment::DirectDebit { .. } => Some(MandateLines {
                reference: format!("{}-DD", quote.quote_ref),
                account_name: field("/payment/account_name"),
                account_number: field("/payment/account_number_masked"),
                sort_code: field("/payment/sort_code"),
            }),
            NewPayment::Card(_) | NewPayment::Free => None,
        },
        card: match payment {
            NewPayment::Card(card) => Some(CardLines {
                issuer: voice.t(&format!("card.issuer.{}", card.issuer.to_lowercase())),
                last4: card.last4.clone(),
                amount: money.price(card.amount),
            }),
            NewPayment::DirectDebit { .. } | NewPayment::Free => None,
        },
        collections: collection_lines(plan, &money),
        notice_days: state
            .defs
            .brand(&quote.brand)
            .map_or(engine::definitions::brands::DIRECT_DEBIT_NOTICE_DAYS, |b| {
                b.direct_debit_notice_days
            }),
        nectar,
    };
    let rendered = state
        .mail_templates
        .confirmation(&message)
        .map_err(|e| AppError::Internal(format!("confirmation email: {e}")))?;
    Ok(crate::mail::Mailer::outbox_entry(
        crate::mail::CONFIRMATION,
        &field("/owner/email_address"),
        rendered,
    ))
}

/// The first collections as the confirmation email gives notice of them: each one's UK date,
/// amount in the brand's money, and how many payments it takes.
pub fn collection_lines(
    plan: &[engine::rules::collections::Collection],
    money: &engine::Money,
) -> Vec<crate::mail::CollectionLine> {
    plan.iter()
        .take(EMAIL_COLLECTIONS)
        .map(|c| crate::mail::CollectionLine {
            date: c.date.format("%d/%m/%Y").to_string(),
            amount: money.price(c.amount),
            payments: i64::from(c.payments),
        })
        .collect()
}

/// The purchase of a bought quote (none before it is bought).
pub async fn purchase_of(
    state: &AppState,
    quote_id: &str,
) -> Result<Option<crate::store::PurchaseRow>, AppError> {
    Ok(state.store.purchase_of(quote_id).await?)
}

/// A card payer's card as the provider describes it (name, issuer, last four digits, expiry),
/// never as the browser says: the token is the provider's, and a token it does not know is a field
/// error on `payment.card_token`.
pub async fn card_details(
    state: &AppState,
    caller: &Caller,
    token: &str,
) -> Result<[(&'static str, Value); 4], AppError> {
    match state.payments.card(token).await {
        Ok(card) => Ok([
            ("card_name", json!(card.name)),
            ("card_issuer", json!(card.issuer.code())),
            ("card_last4", json!(card.last4)),
            ("card_expiry", json!(card.expiry)),
        ]),
        Err(ProviderError::Unavailable(m)) => Err(AppError::Unavailable(m)),
        Err(_) => Err(AppError::Validation(vec![FieldMessage {
            field: "payment.card_token".into(),
            message: quote::request_voice(state, caller)
                .await
                .t("payment.card.token.invalid"),
        }])),
    }
}
