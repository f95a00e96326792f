//! Configuration, read once from the environment into one typed struct. A malformed value stops
//! start-up with a message that names the variable.

use std::path::PathBuf;

pub use secrets::SecretKey;

mod error;
mod groups;
mod parse;
mod payments;
mod secrets;
mod values;
mod variables;
mod webhooks;

use groups::{Access, Files, Jobs, Mail, Place, Traffic};
pub use values::{AddressProvider, ApiKey, DATABASE_CONNECTIONS, HISTORY_CEILING, Limits};
pub use variables::{VARIABLES, Variable, operators_table};

pub use payments::{CardReconcile, PaymentProviderChoice, StripeSettings};
pub use webhooks::PolicyWebhook;

pub use parse::AGGREGATOR_CODES;

pub use error::ConfigError;

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

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads configuration through a lookup function (tests pass their own), a group of
    /// variables at a time; each is in the operator's guide's table (`variables.rs`).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let place = Place::read(&get)?;
        let https = place.public_url.starts_with("https://");
        let access = Access::read(&get, https)?;
        let files = Files::read(&get, &place.data_dir)?;
        let mail = Mail::read(&get)?;
        let jobs = Jobs::read(&get)?;
        let traffic = Traffic::read(&get, access.client_ip_header.is_some())?;
        let payment_provider = payments::payment_provider(&get, https)?;
        let card_reconcile = payments::card_reconcile(&get, &payment_provider)?;
        let policy_webhook = webhooks::policy_webhook(&get, https)?;
        Ok(Self {
            port: place.port,
            data_dir: place.data_dir,
            database_url: place.database_url,
            public_url: place.public_url,
            listen_addr: place.listen_addr,
            log_json: place.log_json,
            test_mode: access.test_mode,
            dev_reload: access.dev_reload,
            admin_token: access.admin_token,
            metrics_token: access.metrics_token,
            aggregator_keys: access.aggregator_keys,
            client_ip_header: access.client_ip_header,
            trusted_proxies: access.trusted_proxies,
            address_provider: access.address_provider,
            secret_key: files.secret_key,
            encryption_key: files.encryption_key,
            definitions_root: files.definitions_root,
            static_dir: files.static_dir,
            modulus_tables: files.modulus_tables,
            sanctions_list: files.sanctions_list,
            sanctions_threshold: files.sanctions_threshold,
            smtp_url: mail.smtp_url,
            mail_from: mail.mail_from,
            mail_retry_ms: mail.mail_retry_ms,
            quote_reminder_days: jobs.quote_reminder_days,
            reminder_interval_ms: jobs.reminder_interval_ms,
            session_override: jobs.session_override,
            shutdown_drain_ms: jobs.shutdown_drain_ms,
            retention_days: jobs.retention_days,
            purge_interval_ms: jobs.purge_interval_ms,
            lookups_per_address: traffic.lookups_per_address,
            retrievals_per_address: traffic.retrievals_per_address,
            session_burst: traffic.session_burst,
            session_saves_per_minute: traffic.session_saves_per_minute,
            history_ceiling: traffic.history_ceiling,
            database_connections: traffic.database_connections,
            limits: traffic.limits,
            payment_provider,
            card_reconcile,
            policy_webhook,
        })
    }

    pub fn secure_cookies(&self) -> bool {
        self.public_url.starts_with("https://")
    }
}

#[cfg(test)]
mod tests;
