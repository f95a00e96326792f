//! The values configuration is read into beside `Config` itself: the address lookup, a third
//! party's key, and the connection limits with their defaults.

use std::fmt;

/// Which address lookup serves /api/AddressSearch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressProvider {
    BuiltIn,
    Loqate { url: String, key: ApiKey },
}

/// A third party's API key: kept out of `Debug` output and so out of every log.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(pub String);

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(…)")
    }
}

/// The default of `PAWPATH_HISTORY_CEILING`, the most transitions one quote's history holds
///: far more than a customer's journey makes (about 20 to 60), few enough that a
/// quote's history stays small (each input at most `engine::journey::runtime::MAX_INPUT_BYTES`).
pub const HISTORY_CEILING: i64 = 500;

/// The default of `PAWPATH_DATABASE_CONNECTIONS`: the most PostgreSQL connections one instance
/// opens.
pub const DATABASE_CONNECTIONS: u32 = 24;

/// How long a connection may take and how many may be open (no request can exhaust
/// the server).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `PAWPATH_HEADER_TIMEOUT_MS` (default 10,000): the time a connection has to send a
    /// request's headers, counted from when it opens or from the previous response; so it is
    /// also how long an idle keep-alive connection stays open.
    pub header_timeout_ms: u64,
    /// `PAWPATH_REQUEST_TIMEOUT_MS` (default 30,000): the most one request may take, body and
    /// answer included; past it the answer is 408.
    pub request_timeout_ms: u64,
    /// `PAWPATH_MAX_CONNECTIONS` (default 1,024): connections open at once; a new one at the
    /// limit closes the oldest connection with no request in flight, failing that the slowest
    /// sender of a request body (or, when all are busy answering, is closed itself).
    pub max_connections: usize,
    /// `PAWPATH_CONNECTIONS_PER_ADDRESS` (default 64): connections open at once from one client
    /// address; a new one past it closes that address's own oldest idle connection or slowest
    /// sender, or is closed itself. Not applied behind `PAWPATH_CLIENT_IP_HEADER` (`None`),
    /// where every connection is the proxy's and the proxy holds the clients' own.
    pub connections_per_address: Option<usize>,
    /// `PAWPATH_BODY_TIMEOUT_MS` (default 10,000): the time a request body has to arrive, to
    /// begin with; and `PAWPATH_BODY_MIN_RATE` (default 500 bytes a second): each that many bytes
    /// received give it a second more (as Apache's `RequestReadTimeout body=10,MinRate=500`).
    /// A body that falls behind is answered 408 and its connection closed.
    pub body_timeout_ms: u64,
    pub body_min_rate: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            header_timeout_ms: 10_000,
            request_timeout_ms: 30_000,
            max_connections: 1_024,
            connections_per_address: Some(64),
            body_timeout_ms: 10_000,
            body_min_rate: 500,
        }
    }
}
