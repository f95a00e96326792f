//! Policy events for the insurer's systems: a policy bought, the pet portal
//! registered, marketing or communication preferences changed, a policy cancelled, a subject's
//! erasure. Each is written to the `policy_events` table in the transaction of what it records,
//! so none is lost, and delivered by a worker as a webhook following the Standard Webhooks
//! specification (`crate::crypto::webhook`): at least once, retried with a doubling delay, with the same id
//! and body every time, and in order within its stream (a purchase's events).
//!
//! Every body is `{"type", "version", "timestamp", "data"}`; each type's JSON Schema is
//! `server/events/v1/<type>.json`, and the tests check what is sent against it.

pub mod bought;
pub mod delivery;

use serde_json::{Value, json};

use crate::store::NewEvent;

pub use crate::crypto::{AccountKey, WebhookSecret};
pub use delivery::Dispatcher;

/// The version of the events' schemas (`server/events/v1/`): a field removed or changed in
/// meaning makes a new version; a field added does not.
pub const VERSION: u32 = 1;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// A quote bought: its policies, the customer, the pets, the cover, the prices and the
    /// payment (free rehoming cover too).
    PolicyBought,
    /// The customer set a pet portal password.
    PortalRegistered,
    /// The customer changed their marketing or policy communication preferences after buying.
    PreferencesChanged,
    /// An operator cancelled a policy (`pawpath terminate-policy`).
    PolicyCancelled,
    /// A data subject asked to be erased (`pawpath subject erase`); their bought quotes are kept
    /// here, and the insurer decides what it keeps of its own copy.
    SubjectErased,
}

impl EventType {
    pub const ALL: [EventType; 5] = [
        EventType::PolicyBought,
        EventType::PortalRegistered,
        EventType::PreferencesChanged,
        EventType::PolicyCancelled,
        EventType::SubjectErased,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventType::PolicyBought => "policy.bought",
            EventType::PortalRegistered => "portal.registered",
            EventType::PreferencesChanged => "preferences.changed",
            EventType::PolicyCancelled => "policy.cancelled",
            EventType::SubjectErased => "subject.erased",
        }
    }
}

/// A new event of `kind` in `stream` (a purchase's id), its body written now: the same bytes
/// are sent on every attempt.
pub fn event(kind: EventType, stream: &str, data: Value) -> NewEvent {
    let body = json!({
        "type": kind.as_str(),
        "version": VERSION,
        "timestamp": crate::store::timestamp(chrono::Utc::now()),
        "data": data,
    });
    NewEvent {
        id: format!("msg_{}", crate::store::random_id()),
        stream: stream.to_owned(),
        kind: kind.as_str().to_owned(),
        body: body.to_string(),
    }
}

/// `portal.registered`: the purchase's customer set a portal password (the password itself
/// never leaves pawpath; only its argon2id hash is kept, here).
pub fn portal_registered(purchase_id: &str, quote_reference: &str, email: &str) -> NewEvent {
    event(
        EventType::PortalRegistered,
        purchase_id,
        json!({
            "purchase_id": purchase_id,
            "quote_reference": quote_reference,
            "email": email,
        }),
    )
}

/// `policy.cancelled`: `policy_number` of `purchase_id` cancelled on `date` (UK date) by an
/// operator.
pub fn policy_cancelled(
    purchase_id: &str,
    policy_number: &str,
    date: chrono::NaiveDate,
) -> NewEvent {
    event(
        EventType::PolicyCancelled,
        purchase_id,
        json!({
            "purchase_id": purchase_id,
            "policy_number": policy_number,
            "cancelled_on": date.to_string(),
            "by": "operator",
        }),
    )
}

/// `preferences.changed`: the customer's marketing and policy communication preferences as
/// they now stand.
pub fn preferences_changed(
    purchase_id: &str,
    quote_reference: &str,
    marketing: &Value,
    documents_by_post: bool,
) -> NewEvent {
    event(
        EventType::PreferencesChanged,
        purchase_id,
        json!({
            "purchase_id": purchase_id,
            "quote_reference": quote_reference,
            "marketing": marketing,
            "documents_by_post": documents_by_post,
        }),
    )
}

/// `subject.erased`: the erasure request `request` reached the customer of `purchase_id`,
/// whose bought quote (and policies) pawpath keeps as an insurer must.
pub fn subject_erased(
    purchase_id: &str,
    request: &str,
    quote_reference: &str,
    policy_numbers: &[String],
) -> NewEvent {
    event(
        EventType::SubjectErased,
        purchase_id,
        json!({
            "purchase_id": purchase_id,
            "request": request,
            "quote_reference": quote_reference,
            "policy_numbers": policy_numbers,
            "kept_by_pawpath": true,
        }),
    )
}
