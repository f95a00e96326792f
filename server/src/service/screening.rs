//! Sanctions screening before a purchase (issue 58; `crate::sanctions` holds the list and the
//! matching): the policyholder's name and date of birth against OFSI's consolidated list. A
//! possible match stops the online purchase with a neutral message asking the customer to call
//! (never the reason), is recorded in the quote's transition log as a blocked purchase with the
//! list entry and score (so staff see it in the replay), logged, and counted in `/metrics`.

use std::time::Instant;

use serde_json::{Value, json};

use engine::journey::record::{Block, TransitionRecord};
use engine::journey::runtime::Outcome;

use crate::service::error::{AppError, FieldMessage};
use crate::service::quote;
use crate::service::state::AppState;
use crate::store::{QuoteRow, TransitionMeta};

/// The block the referral records, and the copy key of what the customer is told.
pub const REFERRAL: &str = "purchase_referred";
const MESSAGE: &str = "purchase.referred";

/// `Some(refusal)` when the quote's policyholder may be on the list: the purchase `record` (the
/// one the engine moved) is kept as blocked instead, with what matched. `None` to go on buying.
pub async fn refer_if_listed(
    state: &AppState,
    quote: &QuoteRow,
    document: &Value,
    record: &TransitionRecord,
    started: Instant,
    experiment_views: &[String],
) -> Result<Option<AppError>, AppError> {
    let owner = |field: &str| {
        document
            .pointer(&format!("/owner/{field}"))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    let date_of_birth =
        chrono::NaiveDate::parse_from_str(owner("customer_date_of_birth"), "%Y-%m-%d").ok();
    let Some(found) = state.sanctions.screen(
        owner("customer_first_name"),
        owner("customer_last_name"),
        date_of_birth,
        state.config.sanctions_threshold,
    ) else {
        return Ok(None);
    };
    let mut referred = record.clone();
    referred.outcome = Outcome::Blocked;
    referred.to = referred.from.clone();
    referred.to_lifecycle = referred.from_lifecycle;
    referred.blocks = vec![Block {
        id: REFERRAL.into(),
        message: MESSAGE.into(),
        field: None,
    }];
    referred.input = Some(json!({ "screening": {
        "list_entry": found.group_id,
        "score": found.score,
        "list_updated": state.sanctions.updated,
    } }));
    let meta = TransitionMeta::of(quote, started, experiment_views);
    state
        .store
        .record(quote, None, &referred, meta, &[])
        .await?;
    tracing::warn!(
        quote = %quote.id,
        list_entry = %found.group_id,
        score = found.score,
        "purchase referred: the policyholder may be on the sanctions list"
    );
    crate::metrics::screening_referral(&quote.journey);
    let voice = quote::voice(state, quote);
    let phone = state
        .defs
        .brand(&quote.brand)
        .map(|b| {
            let channel = if quote.channel == "aggregator" {
                engine::definitions::Channel::Aggregator
            } else {
                engine::definitions::Channel::Direct
            };
            b.sales_phone(
                channel,
                document.get("aggregator").and_then(Value::as_str),
                document.get("tracking_token").and_then(Value::as_str),
            )
            .to_owned()
        })
        .unwrap_or_default();
    Ok(Some(AppError::Validation(vec![FieldMessage {
        field: "purchase".into(),
        message: voice.text(
            MESSAGE,
            &std::collections::BTreeMap::from([("phone".to_owned(), phone)]),
        ),
    }])))
}
