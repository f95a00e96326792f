//! The pet portal password (owner-payment.md §2 Confirmation page, §5 Portal password, §7
//! /api/saveportalpassword): offered once the quote is bought and only while no password
//! exists. Checked by the `portal_password` question set (the same schema the browser checks)
//! and stored only as an argon2id hash.

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, SaltString};
use serde_json::{Map, Value};

use engine::definitions::schema::FieldError;

use crate::service::error::{AppError, FieldMessage};
use crate::service::state::AppState;
use crate::store::QuoteRow;

/// Sets the bought quote's portal password from the confirmation page's form (`body`: `email`,
/// `password`, `password_confirmation`): only soon after the purchase, from the browser that
/// bought, once; the email must be the policyholder's; the password is checked by its question
/// set and kept only as its argon2id hash.
pub async fn save_password(
    state: &AppState,
    quote: &QuoteRow,
    body: &Map<String, Value>,
) -> Result<(), AppError> {
    // The confirmation page offers the form: before the purchase, no open step does.
    if !quote.is_bought() {
        return Err(AppError::StepClosed(crate::service::error::Closed::Form {
            form: "portal_password".into(),
        }));
    }
    let Some(bought) = crate::service::purchase::purchase_of(state, &quote.id).await? else {
        return Err(AppError::Internal(format!(
            "quote {} is bought but has no purchase",
            quote.id
        )));
    };
    if bought.portal_registered {
        return Err(AppError::Conflict);
    }
    // Only soon after the purchase, from the browser that bought (a bought quote joins no other
    // browser): a session found or kept later cannot set the customer's password.
    if !bought.portal_open {
        return Err(AppError::Forbidden(
            crate::service::quote::voice(state, quote).t("portal.closed"),
        ));
    }
    let owner_email = quote
        .document
        .pointer("/owner/email_address")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let email = body
        .get("email")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !email.trim().eq_ignore_ascii_case(owner_email) {
        return Err(AppError::BadRequest(
            "email must be the policy holder's email address".into(),
        ));
    }
    let mut answers = Map::new();
    for field in ["password", "password_confirmation"] {
        if let Some(v) = body.get(field) {
            answers.insert(field.to_owned(), v.clone());
        }
    }
    let answers = Value::Object(answers);
    let schema = state
        .defs
        .question_schema("portal_password")
        .ok_or_else(|| AppError::Internal("no portal_password question set".into()))?;
    let mut errors = schema.field_errors(&answers);
    if errors.is_empty() && answers["password"] != answers["password_confirmation"] {
        errors.push(FieldError::new(
            "password_confirmation",
            "portal.password.mismatch",
        ));
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(
            errors
                .iter()
                .map(|e| FieldMessage {
                    field: e.field.clone(),
                    message: crate::service::quote::voice(state, quote).message(e),
                })
                .collect(),
        ));
    }
    let password = answers["password"].as_str().unwrap_or_default().to_owned();
    // argon2id is slow on purpose: off the request threads.
    let hash = tokio::task::spawn_blocking(move || {
        use rand::RngCore;
        let mut salt = [0u8; 16];
        rand::rng().fill_bytes(&mut salt);
        let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))?
    .map_err(AppError::Internal)?;
    if !crate::service::policy_events::register_portal(state, &bought.id, quote, owner_email, &hash)
        .await?
    {
        return Err(AppError::Conflict);
    }
    Ok(())
}
