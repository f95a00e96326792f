//! The session's quote: finding the quote a request belongs to, creating one for a new visitor,
//! and starting again (journey.md §2 Inactivity timeout, §4 Timers; owner-payment.md §4 Session):
//! a quote reset (its answers cleared, the transition recorded) and parted from its session, as
//! the customer asks or, for a quote left idle past the reset time, on the server's own clock.

use std::time::Instant;

use rand::Rng;

use engine::Definitions;
pub use engine::definitions::DEFAULT_BRAND;
use engine::definitions::{BrandId, Journey, JourneyId};
use engine::journey::runtime::{self, Event, Lifecycle};
use engine::rules::context::RuleContext;

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::reply::Reply;
use crate::service::state::AppState;
use crate::service::view::{self, ViewInput};
use crate::session::SessionToken;
use crate::store::{QuoteRow, TransitionMeta};

pub const DEFAULT_JOURNEY: &str = "direct";

pub struct Session {
    pub quote: QuoteRow,
    pub token: SessionToken,
    /// A Set-Cookie value when the session is new.
    pub new_cookie: Option<String>,
}

/// The quote of the request's session, if it has one.
pub async fn existing(
    state: &AppState,
    caller: &Caller,
) -> Result<Option<(QuoteRow, SessionToken)>, AppError> {
    Ok(match existing_or_reset(state, caller).await? {
        Found::Quote(quote, token) => Some((quote, token)),
        Found::Reset(_) | Found::Nothing => None,
    })
}

/// What a request's session has.
pub enum Found {
    Quote(QuoteRow, SessionToken),
    /// Its quote was left idle past the reset time, and was reset just now: what the next quote
    /// keeps of it.
    Reset(Carried),
    Nothing,
}

/// What a new quote keeps of the one a reset ended (journey.md §2 Inactivity timeout:
/// the journey is reset, not the brand or the channel): its brand, its journey (and so its
/// channel) and the tracking token it came with.
#[derive(Debug, Clone)]
pub struct Carried {
    pub brand: BrandId,
    pub journey: JourneyId,
    pub tracking_token: Option<String>,
    /// The ended quote's reference, where it was kept to be retrieved (it had the owner's email).
    pub kept: Option<String>,
}

impl Carried {
    pub fn of(quote: &QuoteRow) -> Self {
        Self {
            brand: quote.brand.clone(),
            journey: quote.journey.clone(),
            tracking_token: quote
                .document
                .get("tracking_token")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned),
            kept: runtime::kept_on_reset(quote.lifecycle, &quote.document)
                .then(|| quote.quote_ref.clone()),
        }
    }

    /// Where the ended quote can be found again: the retrieve-quote page of its journey, under its
    /// brand, with the reference filled in (the email address is still asked).
    pub fn retrieve(&self, state: &AppState) -> Option<String> {
        let reference = self.kept.as_ref()?;
        let journey = state.defs.journey(&self.journey)?;
        Some(format!(
            "{}/retrieve-quote?brand={}&reference={reference}",
            journey.base_path, self.brand
        ))
    }

    /// Where the new quote starts: its journey's first page, under its brand and with its
    /// tracking token (the default brand's direct journey when the definitions no longer have
    /// the journey).
    pub fn start(&self, state: &AppState) -> String {
        let journey = state
            .defs
            .journey(&self.journey)
            .or_else(|| state.defs.journey(DEFAULT_JOURNEY));
        let brand = state.defs.brand(&self.brand);
        let path = journey
            .and_then(|j| j.step(&j.start).map(|s| (j, s)))
            .map_or_else(
                || "/quote".to_owned(),
                |(j, s)| crate::service::view::step_url(j, s, brand),
            );
        let mut url = format!(
            "{path}?brand={}",
            brand.map_or(DEFAULT_BRAND, |b| b.id.as_str())
        );
        if let Some(token) = &self.tracking_token {
            url.push_str("&tracking_token=");
            url.push_str(token);
        }
        url
    }
}

/// The quote of the request's session; or, when the server has just reset it as idle, what the
/// next quote keeps of it.
pub async fn existing_or_reset(state: &AppState, caller: &Caller) -> Result<Found, AppError> {
    let Some(token) = caller.session.clone() else {
        return Ok(Found::Nothing);
    };
    let Some(quote) = state.store.quote_by_session(&token.hash()).await? else {
        return Ok(Found::Nothing);
    };
    // Left idle past the reset time: reset on the server's own clock (journey.md §4 Timers),
    // and the request goes on as a new visitor's, under the quote's brand and journey.
    if quote.lifecycle == runtime::Lifecycle::Active && idle_past_reset(state, &quote) {
        reset_quote(state, &quote, &[]).await?;
        return Ok(Found::Reset(Carried::of(&quote)));
    }
    Ok(Found::Quote(quote, token))
}

/// The brand a page asks for with its `brand` query parameter (journey.md §1), if the
/// definitions have it; a quote keeps the brand it started with.
pub fn asked_brand(state: &AppState, query: Option<&str>) -> Option<String> {
    query?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| *name == "brand")
        .map(|(_, value)| value.to_ascii_lowercase())
        .filter(|id| state.defs.brand(id).is_some())
}

/// The tracking token a first page names with `tracking_token` (journey.md §1: "a tracking token
/// name" switches the sales number), if the brand has a number for it.
pub fn asked_tracking_token(
    state: &AppState,
    brand: Option<&str>,
    query: Option<&str>,
) -> Option<String> {
    let brand = state.defs.brand(brand.unwrap_or(DEFAULT_BRAND))?;
    query?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| *name == "tracking_token")
        .map(|(_, value)| value.to_ascii_lowercase())
        .filter(|token| brand.sales_phones.tracking_tokens.contains_key(token))
}

/// The request's quote, or a new quote and session for a new visitor, under the brand asked
/// for (the default brand when none, or an unknown one, is asked for), keeping the tracking
/// token the visitor came with.
pub async fn existing_or_new(
    state: &AppState,
    caller: &Caller,
    brand: Option<&str>,
    tracking_token: Option<&str>,
    journey: &Journey,
) -> Result<Session, AppError> {
    let carried = match existing_or_reset(state, caller).await? {
        Found::Quote(quote, token) => {
            return Ok(Session {
                quote,
                token,
                new_cookie: None,
            });
        }
        Found::Reset(carried) => Some(carried),
        Found::Nothing => None,
    };
    // After the server's own reset, the new quote keeps the old one's brand and tracking token
    // unless the page asks for others.
    let brand = brand
        .or_else(|| carried.as_ref().map(|c| c.brand.as_str()))
        .unwrap_or(DEFAULT_BRAND);
    let tracking_token =
        tracking_token.or_else(|| carried.as_ref().and_then(|c| c.tracking_token.as_deref()));
    let token = SessionToken::generate();
    let id = crate::store::quote_id();
    // Each experiment's variation is given when the quote is made and kept with it, so a change
    // of weights never moves a customer to another page mid-quote.
    let mut document = runtime::empty_document();
    if let Some(token) = tracking_token {
        document["tracking_token"] = serde_json::Value::from(token);
    }
    if let Some(experiments) = state.defs.experiments() {
        document["experiments"] = serde_json::json!(experiments.assign(&id, brand));
    }
    let quote = state
        .store
        .insert_quote(
            &id,
            &quote_reference(),
            &token.hash(),
            brand,
            journey.channel,
            &journey.id,
            state.defs.version(),
            &document,
        )
        .await?;
    let cookie = token.set_cookie(state.config.secure_cookies());
    Ok(Session {
        quote,
        token,
        new_cookie: Some(cookie),
    })
}

pub fn journey<'a>(state: &'a AppState, quote: &QuoteRow) -> Result<&'a Journey, AppError> {
    state.defs.journey(&quote.journey).ok_or_else(|| {
        AppError::Internal(format!(
            "quote {} runs on unknown journey {}",
            quote.id, quote.journey
        ))
    })
}

/// The language a quote is in: the one the customer chose with the language chooser where the
/// brand has several (kept in the document), else the brand's default.
pub fn language(state: &AppState, quote: &QuoteRow) -> String {
    language_in(&state.defs, &quote.brand, &quote.document)
}

/// [`language`] on given definitions (a replay's, of its moment).
pub fn language_in(defs: &Definitions, brand: &str, document: &serde_json::Value) -> String {
    let brand = defs.brand(brand);
    document
        .get("language")
        .and_then(serde_json::Value::as_str)
        .filter(|l| brand.is_some_and(|b| b.speaks(l)))
        .map(str::to_owned)
        .or_else(|| brand.map(|b| b.language().to_owned()))
        .unwrap_or_else(|| "en-GB".to_owned())
}

/// How the quote's brand speaks, in the quote's language.
pub fn voice<'a>(state: &'a AppState, quote: &QuoteRow) -> engine::Voice<'a> {
    state.defs.voice(&quote.brand, &language(state, quote))
}

/// The session's quote, read only (no idle reset, nothing made): for what only speaks in the
/// quote's voice. A store that cannot answer is read as no quote.
pub async fn session_quote(state: &AppState, caller: &Caller) -> Option<QuoteRow> {
    let token = caller.session.clone()?;
    state
        .store
        .quote_by_session(&token.hash())
        .await
        .ok()
        .flatten()
}

/// The voice for a call that needs no quote (a lookup's field errors, a rate limit): the
/// session's quote's, when the caller has one, else the default brand's.
pub async fn request_voice<'a>(state: &'a AppState, caller: &Caller) -> engine::Voice<'a> {
    match session_quote(state, caller).await {
        Some(quote) => voice(state, &quote),
        None => state.defs.voice(DEFAULT_BRAND, "en-GB"),
    }
}

/// The inactivity warning and reset times of a quote, in milliseconds: a test host's
/// configured times, else the brand's, else the specification's (journey.md §9: 14,280,000 and
/// 14,400,000 ms).
pub(crate) fn timeouts(state: &AppState, quote: &QuoteRow) -> (u64, u64) {
    timeouts_in(state, &state.defs, &quote.brand)
}

/// [`timeouts`] on given definitions (a replay's, of its moment).
pub(crate) fn timeouts_in(state: &AppState, defs: &Definitions, brand: &str) -> (u64, u64) {
    const DEFAULT: (u64, u64) = (14_280_000, 14_400_000);
    state.config.session_override.unwrap_or_else(|| {
        defs.brand(brand)
            .and_then(|b| b.session)
            .map_or(DEFAULT, |s| (s.warning_ms, s.reset_ms))
    })
}

/// Today in UK local time.
pub fn uk_today() -> chrono::NaiveDate {
    chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::London)
        .date_naive()
}

/// What the domain rules know: today in UK local time, and the quote's brand.
pub fn rule_context(state: &AppState, quote: &QuoteRow) -> RuleContext {
    RuleContext {
        today: uk_today(),
        brand: quote.brand.to_string(),
        bank: Some(state.bank.clone()),
        rate_scheme: state
            .defs
            .journey(&quote.journey)
            .and_then(|j| j.rate_scheme.clone()),
    }
}

/// A quote reference customers can read aloud: 12 characters of Crockford's base32 (no I, L,
/// O or U) in groups of four; 60 random bits, so guessing one is hopeless.
pub fn quote_reference() -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut rng = rand::rng();
    let chars: Vec<char> = (0..12)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// Where a bought quote stands: on the journey's terminal step (the confirmation), every step
/// completed and none open again.
pub fn purchased_position(
    journey: &Journey,
) -> Result<
    (
        &engine::definitions::Step,
        engine::journey::position::Position,
    ),
    AppError,
> {
    let terminal = journey.steps.iter().find(|s| s.terminal).ok_or_else(|| {
        AppError::Internal(format!("journey {} has no terminal step", journey.id))
    })?;
    Ok((
        terminal,
        engine::journey::position::Position {
            furthest: terminal.id.clone(),
            path: vec![terminal.id.clone()],
            completed: journey.steps.iter().map(|s| s.id.clone()).collect(),
        },
    ))
}

/// A new quote for an existing session (a renewed expired quote), with a new reference.
pub async fn insert_for_session(
    state: &AppState,
    session_hash: &str,
    brand: &str,
    channel: engine::definitions::Channel,
    journey: &str,
    document: &serde_json::Value,
) -> Result<QuoteRow, AppError> {
    Ok(state
        .store
        .insert_quote(
            &crate::store::random_id(),
            &quote_reference(),
            session_hash,
            brand,
            channel,
            journey,
            state.defs.version(),
            document,
        )
        .await?)
}

/// Resets a quote and parts it from its session. A bought quote keeps its answers (its policies
/// stand), and so does an open one saved for retrieval (the owner's email is stored: the engine's
/// reset keeps it open, to be found again); each is parted from the session all the same.
pub async fn reset_quote(
    state: &AppState,
    quote: &QuoteRow,
    experiment_views: &[String],
) -> Result<(), AppError> {
    let started = Instant::now();
    if quote.lifecycle == Lifecycle::Active {
        let journey = journey(state, quote)?;
        let rules = rule_context(state, quote);
        let result = runtime::transition(
            &state.defs,
            &journey.id,
            &quote.document,
            quote.lifecycle,
            &Event::Reset,
            rules,
        )?;
        let meta = TransitionMeta::of(quote, started, experiment_views);
        state
            .store
            .record(
                quote,
                Some((&result.document, result.lifecycle)),
                &result.record,
                meta,
                &[],
            )
            .await?;
    }
    state.store.detach_session(&quote.id).await?;
    tracing::info!(quote = %quote.id, "quote ended on this session and parted from it");
    Ok(())
}

/// Whether a quote has been idle past the reset time (the server's own clock). Opening a page
/// records activity at most once per [`activity_slack_ms`] (a page view writes
/// nothing when the quote was active moments ago), so the server waits that much longer: it
/// never resets a quote before the browser's own timer would.
pub fn idle_past_reset(state: &AppState, quote: &QuoteRow) -> bool {
    let reset = timeouts(state, quote).1;
    idle_ms(quote).is_some_and(|idle| {
        idle >= i64::try_from(reset.saturating_add(activity_slack_ms(reset))).unwrap_or(i64::MAX)
    })
}

/// How long ago the quote was last active, by the server's clock.
fn idle_ms(quote: &QuoteRow) -> Option<i64> {
    let last = chrono::DateTime::parse_from_rfc3339(&quote.updated_at).ok()?;
    Some(
        chrono::Utc::now()
            .signed_duration_since(last)
            .num_milliseconds(),
    )
}

/// How stale the recorded activity may be: a twentieth of the reset time, at most 30 seconds.
pub fn activity_slack_ms(reset_ms: u64) -> u64 {
    (reset_ms / 20).min(30_000)
}

/// Whether opening a page should record activity: the last recorded is older than the slack.
pub fn activity_due(state: &AppState, quote: &QuoteRow) -> bool {
    let slack = activity_slack_ms(timeouts(state, quote).1);
    idle_ms(quote).is_none_or(|idle| idle >= i64::try_from(slack).unwrap_or(i64::MAX))
}

/// Notes that the customer opened the quote (idle time starts again), when the activity last
/// noted is more than moments old (a page view writes nothing otherwise).
pub async fn note_activity(state: &AppState, quote: &QuoteRow) -> Result<(), AppError> {
    if activity_due(state, quote) {
        state.store.touch(&quote.id).await?;
    }
    Ok(())
}

/// Records the products a customer was shown: (pet's original id, product code) pairs.
pub async fn record_product_views(
    state: &AppState,
    quote_id: &str,
    views: &[(i64, String)],
) -> Result<(), AppError> {
    Ok(state.store.record_product_views(quote_id, views).await?)
}

/// A quote by the reference the customer sees.
pub async fn by_reference(state: &AppState, reference: &str) -> Result<Option<QuoteRow>, AppError> {
    Ok(state.store.quote_by_ref(reference).await?)
}

/// The working of the quote's prices as last priced: (when, definitions version, pricing).
pub async fn latest_pricing(
    state: &AppState,
    quote_id: &str,
) -> Result<Option<(String, String, serde_json::Value)>, AppError> {
    Ok(state.store.latest_pricing(quote_id).await?)
}

/// The confirmation page's view data for a bought quote.
pub async fn confirmation(
    state: &AppState,
    quote: &QuoteRow,
    token: &SessionToken,
) -> Result<Reply, AppError> {
    let journey = journey(state, quote)?;
    let rules = rule_context(state, quote);
    let (viewing, position) = purchased_position(journey)?;
    let csrf = token.csrf(&state.config.secret_key);
    let voice = voice(state, quote);
    let input = ViewInput {
        defs: &state.defs,
        journey,
        quote,
        viewing,
        position: &position,
        csrf: &csrf,
        voice: &voice,
        rules: &rules,
        holidays: &state.holidays,
        banks: &state.banks,
        card_provider: state.payments.browser(),
        timeouts: timeouts(state, quote),
        account_number: None,
        purchase: state.store.purchase_of(&quote.id).await?,
        after_edit: false,
    };
    let data = view::view_data(&input)?;
    view::Answer {
        data,
        outcome: Some("moved"),
    }
    .reply()
}
