//! The [`Caller`] read from a request: the session cookie, and the client's address (the
//! connection's own, or behind our proxies the entry the outermost of them wrote).

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::session::SessionToken;

impl FromRequestParts<AppState> for Caller {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        // Every connection is served by `serve::serve`, which records its peer.
        let Some(ConnectInfo(peer)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() else {
            return Err(AppError::Internal(
                "the connection's address is unknown".into(),
            ));
        };
        let Some(ip) = client_ip(state, *peer, &parts.headers) else {
            // Behind our proxies every request carries the header they write: one without a
            // usable entry did not come through them, and is refused rather than counted
            // against the address every such request would share.
            return Err(AppError::BadRequest(format!(
                "the request did not come through our proxy: its {} header is missing or has no address where the proxy writes it",
                state
                    .config
                    .client_ip_header
                    .as_ref()
                    .map_or("client address", |h| h.as_str())
            )));
        };
        Ok(Caller {
            session: SessionToken::from_headers(&parts.headers),
            ip,
        })
    }
}

/// The caller's address: the connection's own, or behind our proxies the entry the outermost of
/// them wrote into the configured header (that many from the right). Entries to its left were
/// written by the client and are never believed. `None` behind proxies when the header has no
/// address where they write it.
pub fn client_ip(state: &AppState, peer: SocketAddr, headers: &HeaderMap) -> Option<IpAddr> {
    let Some(name) = state.config.client_ip_header.as_ref() else {
        return Some(peer.ip());
    };
    let entries: Vec<&str> = headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    entries
        .len()
        .checked_sub(state.config.trusted_proxies)
        .and_then(|i| entries.get(i))
        .and_then(|ip| ip.parse().ok())
}
