//! The local test payment provider: a payment provider that runs inside pawpath, for development
//! and tests, behaving as a hosted card provider does. The browser posts the card form to its
//! own endpoint ([`TestProvider::router`], under `/payments/test/`), not to pawpath's API; it
//! checks the card with the card question set (questions/card.json, the schema the browser
//! checked it with), the Luhn check, the issuer table and an expiry not yet passed, and answers
//! with a token. It keeps only what a receipt shows (name, issuer, last four digits, expiry) and
//! whether the number is the test card that is always declined; the number and the CVC are
//! dropped as soon as they are checked.
//!
//! Test cards: any Luhn-valid 16-digit number of a known issuer is accepted, except
//! [`DECLINED_CARD`], which tokenises but is declined when charged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use chrono::{Datelike, NaiveDate};
use engine::Definitions;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::cards::{Issuers, luhn_valid};
use super::{
    AttemptLookup, BoxFuture, BrowserSettings, CardSummary, Charge, ChargeRequest, Charged,
    KeptCard, PaymentProvider, PaymentState, ProviderError, ProviderEvent, WebhookRefused,
};

/// The test card that tokenises but is always declined (as hosted providers' test modes have).
pub const DECLINED_CARD: &str = "4000000000000002";

/// Where the provider's browser endpoint is mounted.
pub const PATH: &str = "/payments/test/v1/tokens";

/// How long a token that has not been charged stays usable.
const TOKEN_LIFETIME: Duration = Duration::from_secs(30 * 60);

/// The most tokens held at once; the oldest uncharged go first.
const MAX_TOKENS: usize = 100_000;

struct Held {
    summary: CardSummary,
    declines: bool,
    created: Instant,
    /// Charged once: kept for the later payments of a monthly policy.
    attached: bool,
}

#[derive(Default)]
struct Ledger {
    tokens: HashMap<String, Held>,
    /// Idempotency key → (token, amount, the payment).
    charges: HashMap<String, (String, Decimal, Charge)>,
    /// The payments given back, and the refund keys they were given back with.
    refunds: HashMap<String, String>,
}

pub struct TestProvider {
    defs: Arc<Definitions>,
    issuers: Issuers,
    publishable_key: String,
    ledger: Mutex<Ledger>,
}

impl TestProvider {
    pub fn new(defs: Arc<Definitions>) -> Result<Self, String> {
        if defs.question_schema("card").is_none() {
            return Err(
                "the test payment provider needs the card question set (questions/card.json)"
                    .into(),
            );
        }
        Ok(Self {
            defs,
            issuers: Issuers::load()?,
            publishable_key: format!("pk_test_{}", crate::store::random_id()),
            ledger: Mutex::new(Ledger::default()),
        })
    }

    /// The browser endpoint: `POST /payments/test/v1/tokens` with
    /// `{card: {card_name, card_number, card_expiry, card_cvc}}` and the publishable key as a
    /// bearer token → `{data: {token, name, issuer, last4, expiry}}`, or 422 with the field
    /// errors in pawpath's shape.
    pub fn router<S: Clone + Send + Sync + 'static>(self: Arc<Self>) -> Router<S> {
        Router::new().route(PATH, post(tokenise)).with_state(self)
    }

    fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Checks a card form and keeps what a receipt shows; the field errors otherwise, as
    /// (field, copy key).
    fn tokenise(
        &self,
        body: &Value,
        today: NaiveDate,
        language: &str,
    ) -> Result<(String, CardSummary), Vec<(String, String)>> {
        let voice = self.voice(language);
        let schema = self.defs.question_schema("card").ok_or_else(Vec::new)?;
        let errors = schema.field_errors(body);
        if !errors.is_empty() {
            return Err(errors
                .into_iter()
                .map(|e| (e.field.clone(), voice.message(&e)))
                .collect());
        }
        let text = |name: &str| {
            body.pointer(&format!("/card/{name}"))
                .and_then(Value::as_str)
                .unwrap_or_default()
        };
        let digits: String = text("card_number")
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        let message = |key: &str| voice.t(key);
        let issuer = self.issuers.detect(&digits).filter(|_| luhn_valid(&digits));
        let Some(issuer) = issuer else {
            return Err(vec![(
                "card.card_number".into(),
                message("payment.card.number.invalid"),
            )]);
        };
        let expiry = text("card_expiry");
        if !expiry_current(expiry, today) {
            return Err(vec![(
                "card.card_expiry".into(),
                message("payment.card.expiry.invalid"),
            )]);
        }
        let summary = CardSummary {
            name: text("card_name").trim().to_owned(),
            issuer,
            last4: digits[digits.len() - 4..].to_owned(),
            expiry: expiry.to_owned(),
        };
        let token = format!("tok_test_{}", crate::store::random_id());
        let mut ledger = self.ledger();
        let now = Instant::now();
        ledger
            .tokens
            .retain(|_, held| held.attached || now.duration_since(held.created) < TOKEN_LIFETIME);
        if ledger.tokens.len() >= MAX_TOKENS
            && let Some(oldest) = ledger
                .tokens
                .iter()
                .filter(|(_, h)| !h.attached)
                .min_by_key(|(_, h)| h.created)
                .map(|(k, _)| k.clone())
        {
            ledger.tokens.remove(&oldest);
        }
        ledger.tokens.insert(
            token.clone(),
            Held {
                summary: summary.clone(),
                declines: digits == DECLINED_CARD,
                created: now,
                attached: false,
            },
        );
        Ok((token, summary))
    }

    /// The provider's words in the language the page asked for (`Accept-Language`, as hosted
    /// card providers take a locale): any brand that speaks it lends its catalogue; British
    /// English otherwise.
    fn voice(&self, language: &str) -> engine::Voice<'_> {
        let speaker = self
            .defs
            .raw
            .brands
            .iter()
            .find(|b| b.value.speaks(language))
            .map_or(engine::definitions::DEFAULT_BRAND, |b| b.value.id.as_str());
        self.defs.voice(speaker, language)
    }

    fn held(&self, token: &str) -> Result<(CardSummary, bool), ProviderError> {
        let ledger = self.ledger();
        match ledger.tokens.get(token) {
            Some(h) if h.attached || h.created.elapsed() < TOKEN_LIFETIME => {
                Ok((h.summary.clone(), h.declines))
            }
            _ => Err(ProviderError::UnknownToken),
        }
    }
}

/// MM/YY names a month that has not ended (a card is good to the last day of its month), and
/// one no more than 20 years ahead.
fn expiry_current(expiry: &str, today: NaiveDate) -> bool {
    let Some((mm, yy)) = expiry.split_once('/') else {
        return false;
    };
    let (Ok(month), Ok(year)) = (mm.parse::<u32>(), yy.parse::<i32>()) else {
        return false;
    };
    let year = 2000 + year;
    let months = |y: i32, m: u32| i64::from(y) * 12 + i64::from(m);
    let ahead = months(year, month) - months(today.year(), today.month());
    (1..=12).contains(&month) && (0..=240).contains(&ahead)
}

impl PaymentProvider for TestProvider {
    fn name(&self) -> &'static str {
        "test"
    }

    fn browser(&self) -> BrowserSettings {
        BrowserSettings::Form {
            tokenise_url: PATH.to_owned(),
            publishable_key: self.publishable_key.clone(),
        }
    }

    fn card<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<CardSummary, ProviderError>> {
        Box::pin(async move { self.held(token).map(|(summary, _)| summary) })
    }

    fn charge<'a>(
        &'a self,
        request: ChargeRequest<'a>,
    ) -> BoxFuture<'a, Result<Charged, ProviderError>> {
        Box::pin(async move {
            let ChargeRequest {
                token,
                amount,
                currency,
                idempotency_key,
                quote_id,
                recurring,
                ..
            } = request;
            let (_, declines) = self.held(token)?;
            let mut ledger = self.ledger();
            if let Some((first_token, first_amount, charge)) = ledger.charges.get(idempotency_key) {
                return if first_token == token && *first_amount == amount {
                    Ok(Charged {
                        payment: charge.id.clone(),
                        state: PaymentState::Paid(charge.clone()),
                    })
                } else {
                    Err(ProviderError::KeyReused)
                };
            }
            if declines {
                return Err(ProviderError::Declined);
            }
            let charge = Charge {
                id: format!("ch_test_{}", crate::store::random_id()),
                amount,
                currency: currency.to_owned(),
                // A monthly payer's card stays with its token, under a customer of the quote.
                kept: recurring.then(|| KeptCard {
                    customer: format!("cus_test_{quote_id}"),
                    payment_method: token.to_owned(),
                }),
            };
            ledger.charges.insert(
                idempotency_key.to_owned(),
                (token.to_owned(), amount, charge.clone()),
            );
            if let Some(held) = ledger.tokens.get_mut(token) {
                held.attached = true;
            }
            Ok(Charged {
                payment: charge.id.clone(),
                state: PaymentState::Paid(charge),
            })
        })
    }

    /// The test provider needs no customer: a kept card stays with its token.
    fn prepare<'a>(
        &'a self,
        _request: ChargeRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<String>, ProviderError>> {
        Box::pin(async { Ok(None) })
    }

    /// The payment made with the attempt's key, if one was.
    fn attempt_payments<'a>(
        &'a self,
        lookup: AttemptLookup<'a>,
    ) -> BoxFuture<'a, Result<Vec<(String, PaymentState)>, ProviderError>> {
        Box::pin(async move {
            let ledger = self.ledger();
            Ok(ledger
                .charges
                .get(lookup.idempotency_key)
                .map(|(_, _, charge)| (charge.id.clone(), PaymentState::Paid(charge.clone())))
                .into_iter()
                .collect())
        })
    }

    fn refund<'a>(
        &'a self,
        payment: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, Result<(), ProviderError>> {
        Box::pin(async move {
            let mut ledger = self.ledger();
            if !ledger.charges.values().any(|(_, _, c)| c.id == payment) {
                return Err(ProviderError::Unavailable(format!(
                    "no payment {payment} to refund"
                )));
            }
            ledger
                .refunds
                .entry(payment.to_owned())
                .or_insert_with(|| key.to_owned());
            Ok(())
        })
    }

    /// The test provider answers every charge at once, so a payment it knows is one it took.
    fn payment<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<PaymentState, ProviderError>> {
        Box::pin(async move {
            let ledger = self.ledger();
            Ok(ledger
                .charges
                .values()
                .find(|(_, _, charge)| charge.id == id)
                .map_or(PaymentState::Failed, |(_, _, charge)| {
                    PaymentState::Paid(charge.clone())
                }))
        })
    }

    fn cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<PaymentState, ProviderError>> {
        self.payment(id)
    }

    fn webhook(
        &self,
        _header: &(dyn Fn(&str) -> Option<String> + Sync),
        _body: &[u8],
    ) -> Result<ProviderEvent, WebhookRefused> {
        Err(WebhookRefused::NotTaken)
    }
}

/// The most a card form may weigh.
const BODY_LIMIT: usize = 2048;

async fn tokenise(
    State(provider): State<Arc<TestProvider>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let problem = |status: StatusCode, error: &str, message: &str| {
        (
            status,
            axum::Json(json!({ "error": error, "message": message })),
        )
            .into_response()
    };
    let key_ok = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|k| k == provider.publishable_key);
    if !key_ok {
        return problem(
            StatusCode::UNAUTHORIZED,
            "unauthorised",
            "Send the publishable key as a bearer token.",
        );
    }
    let json_body = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !json_body {
        return problem(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Send the body as application/json.",
        );
    }
    if body.len() > BODY_LIMIT {
        return problem(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "The request body is too large.",
        );
    }
    // Never echo the body back: a parse error message could quote the card number.
    let Ok(value) = serde_json::from_slice::<Value>(&body) else {
        return problem(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "The body must be a JSON object {card: {card_name, card_number, card_expiry, card_cvc}}.",
        );
    };
    // The card's fields are the card question set's (questions/card.json): the card itself and
    // its billing address.
    let fields = provider
        .defs
        .question_schema("card")
        .and_then(|s| s.schema.pointer("/properties/card/properties"))
        .and_then(Value::as_object);
    let shape_ok = value
        .as_object()
        .is_some_and(|o| o.keys().all(|k| k == "card"))
        && value
            .get("card")
            .and_then(Value::as_object)
            .is_some_and(|c| c.keys().all(|k| fields.is_some_and(|f| f.contains_key(k))));
    if !shape_ok {
        return problem(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "The body must be a JSON object {card: {card_name, card_number, card_expiry, card_cvc, address1…address4}} and nothing else.",
        );
    }
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::London)
        .date_naive();
    // The first language the page asks for ("fr-FR", or "fr-FR,fr;q=0.9").
    let language = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split([',', ';']).next())
        .map_or("en-GB", str::trim);
    match provider.tokenise(&value, today, language) {
        Ok((token, summary)) => axum::Json(json!({
            "data": {
                "token": token,
                "name": summary.name,
                "issuer": summary.issuer,
                "last4": summary.last4,
                "expiry": summary.expiry,
            }
        }))
        .into_response(),
        Err(errors) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            axum::Json(json!({
                "error": "validation",
                "errors": errors.into_iter().map(|(field, message)| json!({ "field": field, "message": message })).collect::<Vec<_>>(),
            })),
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    /// owner-payment.md §5 Payment: expiry MM/YY ("Please enter a valid expiry date"): good to
    /// the end of its month.
    #[test]
    fn an_expiry_is_good_to_the_end_of_its_month() {
        let today = d("2026-11-23");
        assert!(expiry_current("11/26", today));
        assert!(expiry_current("12/26", today));
        assert!(expiry_current("01/27", today));
        assert!(!expiry_current("10/26", today));
        assert!(!expiry_current("13/27", today));
        assert!(!expiry_current("00/27", today));
        assert!(expiry_current("11/46", today));
        assert!(!expiry_current("12/46", today), "more than 20 years ahead");
    }
}
