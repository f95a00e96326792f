//! Configuration, read once from the environment into one typed struct. A malformed value stops
//! start-up with a message that names the variable.

use std::fmt;
use std::path::PathBuf;

pub use secrets::SecretKey;
use secrets::{exactly_32, load_or_create_key, load_or_create_secret, parse_secret};

mod error;
mod parse;
mod payments;
mod secrets;
mod webhooks;

pub use payments::{CardReconcile, PaymentProviderChoice, StripeSettings};
pub use webhooks::PolicyWebhook;

pub use parse::AGGREGATOR_CODES;
use parse::{number_in, parse_aggregator_keys};

pub use error::ConfigError;
use error::err;

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

#[derive(Debug, Clone)]
pub struct Config {
    /// `PORT`: where the server listens (default 8080).
    pub port: u16,
    /// `PAWPATH_DATA_DIR`: where the default SQLite file and the generated secret live (default `./data`).
    pub data_dir: PathBuf,
    /// `DATABASE_URL`: `sqlite://…` or `postgres://…` (default: SQLite in the data folder).
    pub database_url: String,
    /// `PAWPATH_SECRET_KEY`: at least 32 bytes, base64; signs CSRF tokens. When unset, one is
    /// generated once and kept in `<data dir>/secret.key`.
    pub secret_key: SecretKey,
    /// `PAWPATH_DEFINITIONS`: the folder holding `journeys/` and `questions/` (default `.`).
    pub definitions_root: PathBuf,
    /// `PAWPATH_STATIC_DIR`: the built renderer (default `renderer/dist`).
    pub static_dir: PathBuf,
    /// `PAWPATH_PUBLIC_URL`: the address customers use; an `https` one marks cookies Secure.
    pub public_url: String,
    /// `PAWPATH_LOG_FORMAT`: `json` (default) or `pretty`.
    pub log_json: bool,
    /// `PAWPATH_ADDRESS_PROVIDER`: `builtin` (default, offline) or `loqate` (with
    /// `PAWPATH_LOQATE_URL`, default `https://api.addressy.com`, and `PAWPATH_LOQATE_KEY`).
    pub address_provider: AddressProvider,
    /// `PAWPATH_CLIENT_IP_HEADER`: behind a load balancer, the header that carries the
    /// customer's address (for example `x-forwarded-for`, whose first entry is taken); unset,
    /// the connection's own address is used. The code checks' rate limit counts per address.
    pub client_ip_header: Option<axum::http::HeaderName>,
    /// `PAWPATH_TEST_MODE`: `1` turns on the test-data call QA's scripted flows use
    /// (journey.md §2: "a test mode loads test data"); off unless set, refused on https.
    pub test_mode: bool,
    /// `PAWPATH_ENCRYPTION_KEY`: base64 of 32 bytes, the key bank account numbers are encrypted
    /// with at rest; generated once and kept in `<data dir>/encryption.key` when unset.
    pub encryption_key: crate::crypto::EncryptionKey,
    /// `PAWPATH_SESSION_WARNING_MS` and `PAWPATH_SESSION_RESET_MS`, set together on test hosts:
    /// idle time before the inactivity warning and before the quote is reset, for every brand
    /// (journey.md §9: "shorter test values apply on local and test hosts"). Unset, each brand's
    /// own times apply (journeys/brands: 14,280,000 and 14,400,000 ms unless the brand says
    /// otherwise). The server resets idle quotes on its own clock too.
    pub session_override: Option<(u64, u64)>,
    /// `PAWPATH_MODULUS_TABLES`: the folder holding Vocalink's `valacdos.txt` and `scsubtab.txt`
    /// (default `server/data/vocalink` under `PAWPATH_DEFINITIONS`); read at start.
    pub modulus_tables: PathBuf,
    /// `PAWPATH_SANCTIONS_LIST`: OFSI's consolidated list as published (`ConList.csv`; default
    /// `server/data/sanctions/ConList.csv` under `PAWPATH_DEFINITIONS`, a fictional list); read
    /// at start, so a new list is a file and a restart.
    pub sanctions_list: PathBuf,
    /// `PAWPATH_SANCTIONS_THRESHOLD` (default 90; 70 to 100): how alike, in per cent, a
    /// policyholder's name and a listed name must be for a possible match.
    pub sanctions_threshold: u32,
    /// `PAWPATH_ADMIN_TOKEN`: the bearer token of the internal endpoints (a quote's pricing
    /// working); unset, they are off. At least 32 characters; never logged.
    pub admin_token: Option<ApiKey>,
    /// `PAWPATH_METRICS_TOKEN`: the bearer token a Prometheus scraper sends for `/metrics`
    /// (at least 32 characters, never logged); unset, `/metrics` answers 404.
    pub metrics_token: Option<ApiKey>,
    /// `PAWPATH_SHUTDOWN_DRAIN_MS` (default 5,000; 0 to 120,000): on SIGTERM, how long the
    /// server keeps answering while `/readyz` says 503, so the load balancer stops sending it
    /// requests before it stops accepting them. Then requests in flight get up to
    /// `PAWPATH_REQUEST_TIMEOUT_MS` to finish.
    pub shutdown_drain_ms: u64,
    /// `PAWPATH_RETENTION_DAYS` (default 90; 31 to 3,650): how long a quote never bought is kept
    /// after it last changed (a quote is valid for 30 days); then it is purged (see
    /// `store::retention`). Bought quotes are kept as an insurer must.
    pub retention_days: u32,
    /// `PAWPATH_PURGE_INTERVAL_MS` (default 3,600,000: hourly; 0 turns the job off, for a
    /// deployment that runs `pawpath purge` from its own scheduler; else 1,000 to 86,400,000).
    pub purge_interval_ms: u64,
    /// `PAWPATH_DEV_RELOAD=1` (development only): reload the definitions when their files
    /// change, keeping the last good set when a change fails the checks.
    pub dev_reload: bool,
    /// `PAWPATH_AGGREGATOR_KEYS`: the comparison sites' API keys for the inbound quote API, as
    /// `code=key` pairs separated by commas (`ctm=…,msm=…`); codes from journey.md §1 (ctm, gcp,
    /// msm, cnf, qze, mon), keys at least 32 characters and all different. Unset: the API is off.
    pub aggregator_keys: Vec<(String, ApiKey)>,
    /// `PAWPATH_SMTP_URL`: the mail server, as `smtp://host:port` (plain, for a local relay),
    /// `smtp://user:password@host:587?tls=required` (STARTTLS) or `smtps://…` (TLS); unset, emails
    /// wait in the outbox until one is configured. Never logged.
    pub smtp_url: Option<ApiKey>,
    /// `PAWPATH_MAIL_FROM`: the address emails come from (default `no-reply@pawpath.invalid`);
    /// the brand's name is shown with it.
    pub mail_from: lettre::Address,
    /// `PAWPATH_MAIL_RETRY_MS`: the delay before an undelivered email's first retry (default
    /// 30,000); each later retry waits twice as long, up to an hour.
    pub mail_retry_ms: u64,
    /// `PAWPATH_QUOTE_REMINDER_DAYS`: how many days before a quote expires its reminder is sent
    /// (default 7, 1 to 29; 0 sends none). See `service::reminders`.
    pub quote_reminder_days: u32,
    /// `PAWPATH_REMINDER_INTERVAL_MS`: how often the reminder job looks for quotes due one
    /// (default 900,000: every 15 minutes; 50 to 86,400,000).
    pub reminder_interval_ms: u64,
    /// `PAWPATH_PAYMENT_PROVIDER`: where card details go for brands that take cards: `stripe`
    /// (with `PAWPATH_STRIPE_*`, see `payments.rs`), or `test`, the local test provider (the
    /// default on http hosts), which an https host refuses.
    pub payment_provider: PaymentProviderChoice,
    /// `PAWPATH_CARD_RECONCILE_MS` (default 60,000; 100 to 3,600,000): how often card payments
    /// whose outcome is not known are reconciled with the provider; `PAWPATH_CARD_RECONCILE_AFTER_MS`
    /// (default 300,000; 1,000 to 86,400,000, and longer than the provider's timeout): how old an
    /// attempt is before it is (see `service::card_settle`).
    pub card_reconcile: CardReconcile,
    /// The insurer's receiver of policy events (`PAWPATH_POLICY_WEBHOOK_URL`, `…_SECRET`,
    /// `…_ACCOUNT_KEY`, `…_RETRY_MS`; see `webhooks.rs`): required on an https host; unset
    /// elsewhere, events wait in the database until one is set.
    pub policy_webhook: Option<PolicyWebhook>,
    /// `PAWPATH_LISTEN_ADDR`: the address the server listens on (default `0.0.0.0`, every
    /// interface; `127.0.0.1` behind a proxy on the same machine).
    pub listen_addr: std::net::IpAddr,
    /// `PAWPATH_TRUSTED_PROXIES`: how many proxies of ours stand in front of pawpath and append
    /// to the client address header (default 1 when `PAWPATH_CLIENT_IP_HEADER` is set). The
    /// customer's address is the entry the outermost of them wrote: that many from the right;
    /// anything to its left was written by the client and is never believed.
    pub trusted_proxies: usize,
    /// `PAWPATH_LOOKUPS_PER_ADDRESS` (default 1,000): address and vet lookups one client
    /// address may make in 15 minutes (each session may make 60).
    pub lookups_per_address: u64,
    /// `PAWPATH_RETRIEVALS_PER_ADDRESS` (default 1,000): quote retrievals one client address may
    /// try in 15 minutes; many customers share one address, and each session and each quote
    /// reference may be tried only 10 times.
    pub retrievals_per_address: u64,
    /// `PAWPATH_SESSION_BURST` (default 120) and `PAWPATH_SESSION_SAVES_PER_MINUTE` (default 120):
    /// how many state-changing calls one quote may take at once, and how fast the allowance
    /// comes back (a token bucket kept with the quote, `service::pace`).
    pub session_burst: u64,
    pub session_saves_per_minute: u64,
    /// `PAWPATH_HISTORY_CEILING` (default 500): the most transitions one quote's history holds;
    /// past it the quote can only be bought or started again.
    pub history_ceiling: i64,
    /// `PAWPATH_DATABASE_CONNECTIONS` (default 24): the most connections to PostgreSQL one
    /// instance opens, a third for the occasional work (purchases, retrieval, reports) and the
    /// rest for the hot path; each is opened when first needed. Several instances share the
    /// database's `max_connections` (100 by default). SQLite's one file keeps its own few.
    pub database_connections: u32,
    /// Connection limits: `PAWPATH_HEADER_TIMEOUT_MS`, `PAWPATH_REQUEST_TIMEOUT_MS`,
    /// `PAWPATH_MAX_CONNECTIONS`.
    pub limits: Limits,
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

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads configuration through a lookup function (tests pass their own).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let port = match get("PORT") {
            None => 8080,
            Some(v) => v
                .trim()
                .parse::<u16>()
                .map_err(|_| err("PORT", format!("{v:?} is not a port number (0-65535)")))?,
        };
        let data_dir = PathBuf::from(get("PAWPATH_DATA_DIR").unwrap_or_else(|| "data".into()));
        let database_url = match get("DATABASE_URL") {
            None => {
                std::fs::create_dir_all(&data_dir).map_err(|e| {
                    err(
                        "PAWPATH_DATA_DIR",
                        format!("cannot create {}: {e}", data_dir.display()),
                    )
                })?;
                format!(
                    "sqlite://{}?mode=rwc",
                    data_dir.join("pawpath.db").display()
                )
            }
            Some(url)
                if url.starts_with("sqlite:")
                    || url.starts_with("postgres://")
                    || url.starts_with("postgresql://") =>
            {
                url
            }
            Some(_) => {
                return Err(err(
                    "DATABASE_URL",
                    "must start with sqlite: or postgres://",
                ));
            }
        };
        let secret_key = match get("PAWPATH_SECRET_KEY") {
            Some(v) => parse_secret(&v).map_err(|p| err("PAWPATH_SECRET_KEY", p))?,
            None => load_or_create_secret(&data_dir)?,
        };
        let log_json = match get("PAWPATH_LOG_FORMAT").as_deref() {
            None | Some("json") => true,
            Some("pretty") => false,
            Some(other) => {
                return Err(err(
                    "PAWPATH_LOG_FORMAT",
                    format!("{other:?} is neither json nor pretty"),
                ));
            }
        };
        let public_url =
            get("PAWPATH_PUBLIC_URL").unwrap_or_else(|| format!("http://localhost:{port}"));
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            return Err(err(
                "PAWPATH_PUBLIC_URL",
                "must start with http:// or https://",
            ));
        }
        let address_provider = match get("PAWPATH_ADDRESS_PROVIDER").as_deref().map(str::trim) {
            None | Some("") | Some("builtin") => AddressProvider::BuiltIn,
            Some("loqate") => {
                let url =
                    get("PAWPATH_LOQATE_URL").unwrap_or_else(|| "https://api.addressy.com".into());
                if !(url.starts_with("https://") || url.starts_with("http://")) {
                    return Err(err(
                        "PAWPATH_LOQATE_URL",
                        "must start with https:// or http://",
                    ));
                }
                let key = get("PAWPATH_LOQATE_KEY")
                    .map(|k| k.trim().to_owned())
                    .filter(|k| !k.is_empty())
                    .ok_or_else(|| {
                        err(
                            "PAWPATH_LOQATE_KEY",
                            "is required when PAWPATH_ADDRESS_PROVIDER is loqate",
                        )
                    })?;
                AddressProvider::Loqate {
                    url,
                    key: ApiKey(key),
                }
            }
            Some(other) => {
                return Err(err(
                    "PAWPATH_ADDRESS_PROVIDER",
                    format!("{other:?} is neither builtin nor loqate"),
                ));
            }
        };
        let client_ip_header =
            match get("PAWPATH_CLIENT_IP_HEADER").map(|h| h.trim().to_ascii_lowercase()) {
                None => None,
                Some(h) if h.is_empty() => None,
                Some(h) => Some(axum::http::HeaderName::from_bytes(h.as_bytes()).map_err(
                    |_| {
                        err(
                            "PAWPATH_CLIENT_IP_HEADER",
                            format!("{h:?} is not a header name"),
                        )
                    },
                )?),
            };
        let test_mode = match get("PAWPATH_TEST_MODE").as_deref().map(str::trim) {
            None | Some("") | Some("0") | Some("false") => false,
            Some("1") | Some("true") => true,
            Some(other) => {
                return Err(err(
                    "PAWPATH_TEST_MODE",
                    format!("{other:?} is neither 1 nor 0"),
                ));
            }
        };
        let dev_reload = match get("PAWPATH_DEV_RELOAD").as_deref().map(str::trim) {
            None | Some("") | Some("0") | Some("false") => false,
            Some("1") | Some("true") => true,
            Some(other) => {
                return Err(err(
                    "PAWPATH_DEV_RELOAD",
                    format!("{other:?} is neither 1 nor 0"),
                ));
            }
        };
        if dev_reload && public_url.starts_with("https://") {
            return Err(err(
                "PAWPATH_DEV_RELOAD",
                "reloading definitions is for development; it cannot run with an https PAWPATH_PUBLIC_URL",
            ));
        }
        if test_mode && public_url.starts_with("https://") {
            return Err(err(
                "PAWPATH_TEST_MODE",
                "test mode is for local and test hosts; it cannot run with an https PAWPATH_PUBLIC_URL",
            ));
        }
        let admin_token = match get("PAWPATH_ADMIN_TOKEN").map(|t| t.trim().to_owned()) {
            None => None,
            Some(t) if t.is_empty() => None,
            Some(t) if t.len() < 32 => {
                return Err(err("PAWPATH_ADMIN_TOKEN", "must be at least 32 characters"));
            }
            Some(t) => Some(ApiKey(t)),
        };
        let metrics_token = match get("PAWPATH_METRICS_TOKEN").map(|t| t.trim().to_owned()) {
            None => None,
            Some(t) if t.is_empty() => None,
            Some(t) if t.len() < 32 => {
                return Err(err(
                    "PAWPATH_METRICS_TOKEN",
                    "must be at least 32 characters",
                ));
            }
            Some(t) if admin_token.as_ref().is_some_and(|a| a.0 == t) => {
                return Err(err(
                    "PAWPATH_METRICS_TOKEN",
                    "must differ from PAWPATH_ADMIN_TOKEN (a scraper's token opens no quote)",
                ));
            }
            Some(t) => Some(ApiKey(t)),
        };
        let aggregator_keys = match get("PAWPATH_AGGREGATOR_KEYS") {
            None => Vec::new(),
            Some(v) => parse_aggregator_keys(&v)
                .map_err(|p| err("PAWPATH_AGGREGATOR_KEYS", p))?
                .into_iter()
                .map(|(code, key)| (code, ApiKey(key)))
                .collect(),
        };
        let definitions_root =
            PathBuf::from(get("PAWPATH_DEFINITIONS").unwrap_or_else(|| ".".into()));
        let encryption_key = match get("PAWPATH_ENCRYPTION_KEY") {
            Some(value) => parse_secret(&value)
                .map_err(|p| err("PAWPATH_ENCRYPTION_KEY", p))
                .and_then(|k| exactly_32("PAWPATH_ENCRYPTION_KEY", k.bytes()))?,
            None => {
                let k = load_or_create_key(&data_dir, "encryption.key", "PAWPATH_ENCRYPTION_KEY")?;
                exactly_32("PAWPATH_ENCRYPTION_KEY", k.bytes())?
            }
        };
        let modulus_tables = get("PAWPATH_MODULUS_TABLES")
            .map(PathBuf::from)
            .unwrap_or_else(|| definitions_root.join("server/data/vocalink"));
        let sanctions_list = get("PAWPATH_SANCTIONS_LIST")
            .map(PathBuf::from)
            .unwrap_or_else(|| definitions_root.join("server/data/sanctions/ConList.csv"));
        let sanctions_threshold = u32::try_from(number_in(
            &get,
            "PAWPATH_SANCTIONS_THRESHOLD",
            70..=100,
            90,
        )?)
        .unwrap_or(90);
        let millis = |name: &'static str| -> Result<Option<u64>, ConfigError> {
            match get(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n >= 1000)
                    .ok_or_else(|| {
                        err(
                            name,
                            format!("{v:?} is not a number of milliseconds (1000 or more)"),
                        )
                    })
                    .map(Some),
            }
        };
        let session_override = match (
            millis("PAWPATH_SESSION_WARNING_MS")?,
            millis("PAWPATH_SESSION_RESET_MS")?,
        ) {
            (None, None) => None,
            (Some(warning), Some(reset)) if warning < reset => Some((warning, reset)),
            (Some(_), Some(_)) => {
                return Err(err(
                    "PAWPATH_SESSION_WARNING_MS",
                    "must be less than PAWPATH_SESSION_RESET_MS",
                ));
            }
            (Some(_), None) => {
                return Err(err(
                    "PAWPATH_SESSION_RESET_MS",
                    "is needed with PAWPATH_SESSION_WARNING_MS: set both or neither",
                ));
            }
            (None, Some(_)) => {
                return Err(err(
                    "PAWPATH_SESSION_WARNING_MS",
                    "is needed with PAWPATH_SESSION_RESET_MS: set both or neither",
                ));
            }
        };
        let smtp_url = match get("PAWPATH_SMTP_URL").map(|u| u.trim().to_owned()) {
            None => None,
            Some(u) if u.is_empty() => None,
            Some(u) => {
                lettre::AsyncSmtpTransport::<lettre::Tokio1Executor>::from_url(&u).map_err(
                    |e| {
                        err(
                            "PAWPATH_SMTP_URL",
                            format!("is not an smtp:// or smtps:// address ({e})"),
                        )
                    },
                )?;
                Some(ApiKey(u))
            }
        };
        let mail_from = get("PAWPATH_MAIL_FROM")
            .unwrap_or_else(|| "no-reply@pawpath.invalid".into())
            .trim()
            .parse::<lettre::Address>()
            .map_err(|e| {
                err(
                    "PAWPATH_MAIL_FROM",
                    format!("is not an email address ({e})"),
                )
            })?;
        let mail_retry_ms = match get("PAWPATH_MAIL_RETRY_MS") {
            None => 30_000,
            Some(v) => v
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (50..=3_600_000).contains(n))
                .ok_or_else(|| {
                    err(
                        "PAWPATH_MAIL_RETRY_MS",
                        format!("{v:?} is not a number of milliseconds from 50 to 3,600,000"),
                    )
                })?,
        };
        let quote_reminder_days = match get("PAWPATH_QUOTE_REMINDER_DAYS") {
            None => 7,
            Some(v) => v
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| *n < 30)
                .ok_or_else(|| {
                    err(
                        "PAWPATH_QUOTE_REMINDER_DAYS",
                        format!(
                            "{v:?} is not a number of days from 0 (no reminders) to 29 (a quote is valid for 30)"
                        ),
                    )
                })?,
        };
        let reminder_interval_ms = match get("PAWPATH_REMINDER_INTERVAL_MS") {
            None => 900_000,
            Some(v) => v
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (50..=86_400_000).contains(n))
                .ok_or_else(|| {
                    err(
                        "PAWPATH_REMINDER_INTERVAL_MS",
                        format!("{v:?} is not a number of milliseconds from 50 to 86,400,000"),
                    )
                })?,
        };
        let payment_provider =
            payments::payment_provider(&get, public_url.starts_with("https://"))?;
        let policy_webhook = webhooks::policy_webhook(&get, public_url.starts_with("https://"))?;
        let listen_addr = match get("PAWPATH_LISTEN_ADDR") {
            None => std::net::IpAddr::from([0, 0, 0, 0]),
            Some(v) => v.trim().parse().map_err(|_| {
                err(
                    "PAWPATH_LISTEN_ADDR",
                    format!("{v:?} is not an IP address (for example 127.0.0.1 or ::)"),
                )
            })?,
        };
        let trusted_proxies =
            usize::try_from(number_in(&get, "PAWPATH_TRUSTED_PROXIES", 1..=10, 1)?).unwrap_or(1);
        let defaults = Limits::default();
        let limits = Limits {
            header_timeout_ms: number_in(
                &get,
                "PAWPATH_HEADER_TIMEOUT_MS",
                100..=600_000,
                defaults.header_timeout_ms,
            )?,
            request_timeout_ms: number_in(
                &get,
                "PAWPATH_REQUEST_TIMEOUT_MS",
                100..=600_000,
                defaults.request_timeout_ms,
            )?,
            max_connections: usize::try_from(number_in(
                &get,
                "PAWPATH_MAX_CONNECTIONS",
                1..=1_000_000,
                defaults.max_connections as u64,
            )?)
            .unwrap_or(defaults.max_connections),
            connections_per_address: Some(
                usize::try_from(number_in(
                    &get,
                    "PAWPATH_CONNECTIONS_PER_ADDRESS",
                    1..=1_000_000,
                    64,
                )?)
                .unwrap_or(64),
            ),
            body_timeout_ms: number_in(
                &get,
                "PAWPATH_BODY_TIMEOUT_MS",
                100..=600_000,
                defaults.body_timeout_ms,
            )?,
            body_min_rate: number_in(
                &get,
                "PAWPATH_BODY_MIN_RATE",
                1..=100_000_000,
                defaults.body_min_rate,
            )?,
        };
        let lookups_per_address =
            number_in(&get, "PAWPATH_LOOKUPS_PER_ADDRESS", 1..=10_000_000, 1_000)?;
        let retrievals_per_address = number_in(
            &get,
            "PAWPATH_RETRIEVALS_PER_ADDRESS",
            1..=10_000_000,
            1_000,
        )?;
        let session_burst = number_in(&get, "PAWPATH_SESSION_BURST", 1..=1_000_000, 120)?;
        let session_saves_per_minute =
            number_in(&get, "PAWPATH_SESSION_SAVES_PER_MINUTE", 1..=6_000_000, 120)?;
        let history_ceiling = i64::try_from(number_in(
            &get,
            "PAWPATH_HISTORY_CEILING",
            10..=100_000,
            u64::try_from(HISTORY_CEILING).unwrap_or(500),
        )?)
        .unwrap_or(HISTORY_CEILING);
        let database_connections = u32::try_from(number_in(
            &get,
            "PAWPATH_DATABASE_CONNECTIONS",
            3..=1_000,
            u64::from(DATABASE_CONNECTIONS),
        )?)
        .unwrap_or(DATABASE_CONNECTIONS);
        let shutdown_drain_ms = number_in(&get, "PAWPATH_SHUTDOWN_DRAIN_MS", 0..=120_000, 5_000)?;
        let retention_days =
            u32::try_from(number_in(&get, "PAWPATH_RETENTION_DAYS", 31..=3_650, 90)?).unwrap_or(90);
        let purge_interval_ms =
            number_in(&get, "PAWPATH_PURGE_INTERVAL_MS", 0..=86_400_000, 3_600_000)?;
        if purge_interval_ms != 0 && purge_interval_ms < 1_000 {
            return Err(err(
                "PAWPATH_PURGE_INTERVAL_MS",
                format!(
                    "{purge_interval_ms} is not 0 (off) or a number of milliseconds from 1,000 to 86,400,000"
                ),
            ));
        }
        let card_reconcile = payments::card_reconcile(&get, &payment_provider)?;
        Ok(Self {
            metrics_token,
            card_reconcile,
            shutdown_drain_ms,
            retention_days,
            purge_interval_ms,
            lookups_per_address,
            retrievals_per_address,
            session_burst,
            session_saves_per_minute,
            history_ceiling,
            database_connections,
            listen_addr,
            trusted_proxies,
            limits: Limits {
                connections_per_address: limits
                    .connections_per_address
                    .filter(|_| client_ip_header.is_none()),
                ..limits
            },
            payment_provider,
            policy_webhook,
            smtp_url,
            mail_from,
            mail_retry_ms,
            quote_reminder_days,
            reminder_interval_ms,
            session_override,
            encryption_key,
            modulus_tables,
            sanctions_list,
            sanctions_threshold,
            admin_token,
            dev_reload,
            aggregator_keys,
            test_mode,
            client_ip_header,
            address_provider,
            port,
            data_dir,
            database_url,
            secret_key,
            definitions_root,
            static_dir: PathBuf::from(
                get("PAWPATH_STATIC_DIR").unwrap_or_else(|| "renderer/dist".into()),
            ),
            public_url,
            log_json,
        })
    }

    pub fn secure_cookies(&self) -> bool {
        self.public_url.starts_with("https://")
    }
}

#[cfg(test)]
mod tests;
