//! The CSRF token of the page's own state-changing calls, checked before the body is read: the
//! page sends it in the `X-CSRF-Token` header as well as in the body. A request whose header
//! holds this session's token has its body read and judged as usual (a bad body is named, 400).
//! Any other (no header, or a token that is not this session's) can only be refused (403): a body
//! that cannot be read (not JSON, too large, malformed) is refused as a missing token, never
//! answered as a client's mistake; a readable one goes to the call, whose own check of the body's
//! token refuses it with what that call says on a refusal (a stale page's reset names where the
//! browser's quote starts).

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

use crate::service::state::AppState;
use crate::session::SessionToken;

/// The header the page sends the token in.
pub const HEADER: &str = "x-csrf-token";

/// Marks a request whose token is still to be read from its body (no header, or not this
/// session's token in it).
#[derive(Debug, Clone, Copy)]
pub struct TokenInBody;

/// The layer on every call of [`crate::routes::call::Access::Session`].
pub async fn before_the_body(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let checked = request
        .headers()
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|given| {
            SessionToken::from_headers(request.headers())
                .is_some_and(|s| s.csrf_matches(&state.config.secret_key, given))
        });
    if !checked {
        request.extensions_mut().insert(TokenInBody);
    }
    next.run(request).await
}
