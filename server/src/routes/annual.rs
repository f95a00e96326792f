//! The annual rehoming flow's policy link (journey.md §1 Extra flows, §2 Routes: /pet-details,
//! /choose-product, /review, /payment, /payment-confirmation, /confirmation, /already-purchased,
//! /policy-link-expired, /policy-terminated).
//!
//! A free rehoming policy's email and confirmation page carry a link signed with the server's
//! secret, naming the policy and when the link stops working (the end of the free cover's last
//! day, UK time). Opening it makes the annual quote from the free policy's pet and owner (once:
//! a second click reopens that quote) and lands on /pet-details; a cancelled policy, a quote
//! already bought or a link past its date each have their page. A link that is not ours is the
//! not-found page: nothing about any policy is told to a guesser.

use axum::extract::{Path, State};
use axum::response::Response;

use crate::service::error::AppError;
use crate::service::state::AppState;

/// GET /annual-rehoming/start/{token}: a free policy's link to annual cover, landing where the
/// service says (a 303 no cache keeps, with the session's cookie when one is made).
pub(super) async fn start(
    State(state): State<AppState>,
    Path(token): Path<String>,
    caller: crate::service::Caller,
) -> Result<Response, AppError> {
    let landing = crate::service::annual::start(&state, &token, &caller).await?;
    Ok(crate::http::answers::see_other(&landing.to, landing.cookie))
}
