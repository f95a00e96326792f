//! The pet portal password (owner-payment.md §2 Confirmation page, §5 Portal password, §7
//! /api/saveportalpassword): the call; what it checks and keeps is `service::portal`.

use axum::extract::State;
use axum::response::Response;
use serde_json::json;

use crate::http::body::JsonObject;
use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::service::transition::{Authorised, authorise};

/// POST /api/saveportalpassword: `{csrf, email, password, password_confirmation}`.
pub(super) async fn save_portal_password(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let Authorised { quote, token, .. } = authorise(
        &state,
        &caller,
        &body,
        &["email", "password", "password_confirmation"],
    )
    .await?;
    crate::service::portal::save_password(&state, &quote, &body).await?;
    tracing::info!(quote = %quote.id, "portal password set");
    let csrf = token.csrf(&state.config.secret_key);
    Ok(axum::response::IntoResponse::into_response(axum::Json(
        json!({
            "data": { "portal_registered": true, "csrf": csrf },
            "success": true,
        }),
    )))
}
