//! Who makes a call, as the service needs to know them. The HTTP layer reads it from the request
//! (`http::caller`): the session cookie, and the client's address through the trusted proxies.

use std::net::IpAddr;

use crate::session::SessionToken;

/// The caller of one request: the session their browser holds (none for a first visit, or a
/// cookie of the wrong shape) and the address they call from.
#[derive(Debug, Clone)]
pub struct Caller {
    pub session: Option<SessionToken>,
    pub ip: IpAddr,
}
