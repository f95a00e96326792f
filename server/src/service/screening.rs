//! Sanctions screening before a purchase (`crate::sanctions` holds the list and the matching):
//! every party against OFSI's consolidated list: the policyholder (with their date of birth),
//! the Direct Debit account holder or the cardholder, and on the rehoming flow the owner who takes
//! the free cover (the same policyholder fields). A possible match stops the online purchase with
//! a neutral message asking the customer to call (never the reason), is recorded in the quote's
//! transition log as a blocked purchase with the party, list entry and score (so staff see it in
//! the replay), logged, and counted in `/metrics`.

use std::time::Instant;

use serde_json::{Value, json};

use engine::journey::record::{Block, TransitionRecord};
use engine::journey::runtime::Outcome;

use crate::sanctions::Party;
use crate::service::error::{AppError, FieldMessage};
use crate::service::quote;
use crate::service::state::AppState;
use crate::store::{QuoteRow, TransitionMeta};

/// The block the referral records, and the copy key of what the customer is told.
pub const REFERRAL: &str = "purchase_referred";
const MESSAGE: &str = "purchase.referred";

/// `Some(refusal)` when a party to the purchase may be on the list: the purchase `record` (the
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
    let paid = |field: &str| {
        document
            .pointer(&format!("/payment/{field}"))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|name| !name.is_empty())
    };
    let by_card = paid("payment_method") == Some("CC");
    let payer = if by_card {
        paid("card_name").map(|n| ("cardholder", n))
    } else {
        paid("account_name").map(|n| ("account_holder", n))
    };
    let mut parties = vec![(
        "policyholder",
        Party {
            given: owner("customer_first_name"),
            surname: owner("customer_last_name"),
            date_of_birth,
        },
    )];
    let threshold = state.config.sanctions_threshold;
    // A payer who is the policyholder is the same person, screened with their date of birth; a
    // different payer is screened by name (no date of birth is asked of them).
    if let Some((party, name)) = payer {
        let payer = Party::named(name);
        if !state.sanctions.same_name(&parties[0].1, &payer, threshold) {
            parties.push((party, payer));
        }
    }
    let Some((party, found)) = parties.iter().find_map(|(party, who)| {
        state
            .sanctions
            .screen_party(who, threshold)
            .map(|found| (*party, found))
    }) else {
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
        "party": party,
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
        party,
        list_entry = %found.group_id,
        score = found.score,
        "purchase referred: a party to it may be on the sanctions list"
    );
    crate::metrics::screening_referral(&quote.journey);
    let voice = quote::voice(state, quote);
    let phone = state
        .defs
        .brand(&quote.brand)
        .map(|b| {
            b.sales_phone(
                quote.channel,
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
