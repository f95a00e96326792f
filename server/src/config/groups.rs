//! The variables in groups, each read by a function of its own: where pawpath runs, who may call
//! what, the files it reads, mail, the jobs, and the traffic it takes.

use std::path::{Path, PathBuf};

use super::error::{ConfigError, err};
use super::parse::{millis_in, number_in, parse_aggregator_keys};
use super::secrets::{
    SecretKey, exactly_32, load_or_create_key, load_or_create_secret, parse_secret,
};
use super::values::{AddressProvider, ApiKey, DATABASE_CONNECTIONS, HISTORY_CEILING, Limits};

/// Where pawpath runs: its port and address, its database, its public address and its logs.
pub(super) struct Place {
    pub(super) port: u16,
    pub(super) data_dir: PathBuf,
    pub(super) database_url: String,
    pub(super) public_url: String,
    pub(super) listen_addr: std::net::IpAddr,
    pub(super) log_json: bool,
}

impl Place {
    pub(super) fn read(get: &impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
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
        let listen_addr = match get("PAWPATH_LISTEN_ADDR") {
            None => std::net::IpAddr::from([0, 0, 0, 0]),
            Some(v) => v.trim().parse().map_err(|_| {
                err(
                    "PAWPATH_LISTEN_ADDR",
                    format!("{v:?} is not an IP address (for example 127.0.0.1 or ::)"),
                )
            })?,
        };
        Ok(Self {
            port,
            data_dir,
            database_url,
            public_url,
            listen_addr,
            log_json,
        })
    }
}

/// Who may call what: the test and development switches, the staff's and the scraper's tokens,
/// the comparison sites' keys, where a client's address is read, and the address lookup.
pub(super) struct Access {
    pub(super) test_mode: bool,
    pub(super) dev_reload: bool,
    pub(super) admin_token: Option<ApiKey>,
    pub(super) metrics_token: Option<ApiKey>,
    pub(super) aggregator_keys: Vec<(String, ApiKey)>,
    pub(super) client_ip_header: Option<axum::http::HeaderName>,
    pub(super) trusted_proxies: usize,
    pub(super) address_provider: AddressProvider,
}

/// A switch: unset, empty, `0` or `false` is off; `1` or `true` is on.
fn switch(get: &impl Fn(&str) -> Option<String>, name: &'static str) -> Result<bool, ConfigError> {
    match get(name).as_deref().map(str::trim) {
        None | Some("") | Some("0") | Some("false") => Ok(false),
        Some("1") | Some("true") => Ok(true),
        Some(other) => Err(err(name, format!("{other:?} is neither 1 nor 0"))),
    }
}

/// A token of at least 32 characters, or none when unset or empty.
fn token(
    get: &impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<ApiKey>, ConfigError> {
    match get(name).map(|t| t.trim().to_owned()) {
        None => Ok(None),
        Some(t) if t.is_empty() => Ok(None),
        Some(t) if t.len() < 32 => Err(err(name, "must be at least 32 characters")),
        Some(t) => Ok(Some(ApiKey(t))),
    }
}

impl Access {
    pub(super) fn read(
        get: &impl Fn(&str) -> Option<String>,
        https: bool,
    ) -> Result<Self, ConfigError> {
        let test_mode = switch(get, "PAWPATH_TEST_MODE")?;
        let dev_reload = switch(get, "PAWPATH_DEV_RELOAD")?;
        if dev_reload && https {
            return Err(err(
                "PAWPATH_DEV_RELOAD",
                "reloading definitions is for development; it cannot run with an https PAWPATH_PUBLIC_URL",
            ));
        }
        if test_mode && https {
            return Err(err(
                "PAWPATH_TEST_MODE",
                "test mode is for local and test hosts; it cannot run with an https PAWPATH_PUBLIC_URL",
            ));
        }
        let admin_token = token(get, "PAWPATH_ADMIN_TOKEN")?;
        let metrics_token = token(get, "PAWPATH_METRICS_TOKEN")?;
        if let (Some(admin), Some(metrics)) = (&admin_token, &metrics_token)
            && admin.0 == metrics.0
        {
            return Err(err(
                "PAWPATH_METRICS_TOKEN",
                "must differ from PAWPATH_ADMIN_TOKEN (a scraper's token opens no quote)",
            ));
        }
        let aggregator_keys = match get("PAWPATH_AGGREGATOR_KEYS") {
            None => Vec::new(),
            Some(v) => parse_aggregator_keys(&v)
                .map_err(|p| err("PAWPATH_AGGREGATOR_KEYS", p))?
                .into_iter()
                .map(|(code, key)| (code, ApiKey(key)))
                .collect(),
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
        let trusted_proxies =
            usize::try_from(number_in(get, "PAWPATH_TRUSTED_PROXIES", 1..=10, 1)?).unwrap_or(1);
        Ok(Self {
            test_mode,
            dev_reload,
            admin_token,
            metrics_token,
            aggregator_keys,
            client_ip_header,
            trusted_proxies,
            address_provider: address_provider(get)?,
        })
    }
}

/// `PAWPATH_ADDRESS_PROVIDER` and, for Loqate, its address and key.
fn address_provider(get: &impl Fn(&str) -> Option<String>) -> Result<AddressProvider, ConfigError> {
    match get("PAWPATH_ADDRESS_PROVIDER").as_deref().map(str::trim) {
        None | Some("") | Some("builtin") => Ok(AddressProvider::BuiltIn),
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
            Ok(AddressProvider::Loqate {
                url,
                key: ApiKey(key),
            })
        }
        Some(other) => Err(err(
            "PAWPATH_ADDRESS_PROVIDER",
            format!("{other:?} is neither builtin nor loqate"),
        )),
    }
}

/// The keys and the files pawpath reads at start: the definitions, the built renderer, the
/// modulus tables and the sanctions list.
pub(super) struct Files {
    pub(super) secret_key: SecretKey,
    pub(super) encryption_key: crate::crypto::EncryptionKey,
    pub(super) definitions_root: PathBuf,
    pub(super) static_dir: PathBuf,
    pub(super) modulus_tables: PathBuf,
    pub(super) sanctions_list: PathBuf,
    pub(super) sanctions_threshold: u32,
}

impl Files {
    pub(super) fn read(
        get: &impl Fn(&str) -> Option<String>,
        data_dir: &Path,
    ) -> Result<Self, ConfigError> {
        let secret_key = match get("PAWPATH_SECRET_KEY") {
            Some(v) => parse_secret(&v).map_err(|p| err("PAWPATH_SECRET_KEY", p))?,
            None => load_or_create_secret(data_dir)?,
        };
        let encryption_key = match get("PAWPATH_ENCRYPTION_KEY") {
            Some(value) => parse_secret(&value)
                .map_err(|p| err("PAWPATH_ENCRYPTION_KEY", p))
                .and_then(|k| exactly_32("PAWPATH_ENCRYPTION_KEY", k.bytes()))?,
            None => {
                let k = load_or_create_key(data_dir, "encryption.key", "PAWPATH_ENCRYPTION_KEY")?;
                exactly_32("PAWPATH_ENCRYPTION_KEY", k.bytes())?
            }
        };
        let definitions_root =
            PathBuf::from(get("PAWPATH_DEFINITIONS").unwrap_or_else(|| ".".into()));
        let modulus_tables = get("PAWPATH_MODULUS_TABLES")
            .map(PathBuf::from)
            .unwrap_or_else(|| definitions_root.join("server/data/vocalink"));
        let sanctions_list = get("PAWPATH_SANCTIONS_LIST")
            .map(PathBuf::from)
            .unwrap_or_else(|| definitions_root.join("server/data/sanctions/ConList.csv"));
        let sanctions_threshold =
            u32::try_from(number_in(get, "PAWPATH_SANCTIONS_THRESHOLD", 70..=100, 90)?)
                .unwrap_or(90);
        Ok(Self {
            secret_key,
            encryption_key,
            static_dir: PathBuf::from(
                get("PAWPATH_STATIC_DIR").unwrap_or_else(|| "renderer/dist".into()),
            ),
            definitions_root,
            modulus_tables,
            sanctions_list,
            sanctions_threshold,
        })
    }
}

/// Mail: the server, the sender and the retry.
pub(super) struct Mail {
    pub(super) smtp_url: Option<ApiKey>,
    pub(super) mail_from: lettre::Address,
    pub(super) mail_retry_ms: u64,
}

impl Mail {
    pub(super) fn read(get: &impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
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
        Ok(Self {
            smtp_url,
            mail_from,
            mail_retry_ms: millis_in(get, "PAWPATH_MAIL_RETRY_MS", 50..=3_600_000, 30_000)?,
        })
    }
}

/// The clocks: reminders, the idle session override, the drain on shutdown and the purge.
pub(super) struct Jobs {
    pub(super) quote_reminder_days: u32,
    pub(super) reminder_interval_ms: u64,
    pub(super) session_override: Option<(u64, u64)>,
    pub(super) shutdown_drain_ms: u64,
    pub(super) retention_days: u32,
    pub(super) purge_interval_ms: u64,
}

impl Jobs {
    pub(super) fn read(get: &impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
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
        let purge_interval_ms =
            number_in(get, "PAWPATH_PURGE_INTERVAL_MS", 0..=86_400_000, 3_600_000)?;
        if purge_interval_ms != 0 && purge_interval_ms < 1_000 {
            return Err(err(
                "PAWPATH_PURGE_INTERVAL_MS",
                format!(
                    "{purge_interval_ms} is not 0 (off) or a number of milliseconds from 1,000 to 86,400,000"
                ),
            ));
        }
        Ok(Self {
            quote_reminder_days,
            reminder_interval_ms: millis_in(
                get,
                "PAWPATH_REMINDER_INTERVAL_MS",
                50..=86_400_000,
                900_000,
            )?,
            session_override: session_override(get)?,
            shutdown_drain_ms: number_in(get, "PAWPATH_SHUTDOWN_DRAIN_MS", 0..=120_000, 5_000)?,
            retention_days: u32::try_from(number_in(
                get,
                "PAWPATH_RETENTION_DAYS",
                31..=3_650,
                90,
            )?)
            .unwrap_or(90),
            purge_interval_ms,
        })
    }
}

/// `PAWPATH_SESSION_WARNING_MS` and `PAWPATH_SESSION_RESET_MS`: both or neither, the warning
/// first.
fn session_override(
    get: &impl Fn(&str) -> Option<String>,
) -> Result<Option<(u64, u64)>, ConfigError> {
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
    match (
        millis("PAWPATH_SESSION_WARNING_MS")?,
        millis("PAWPATH_SESSION_RESET_MS")?,
    ) {
        (None, None) => Ok(None),
        (Some(warning), Some(reset)) if warning < reset => Ok(Some((warning, reset))),
        (Some(_), Some(_)) => Err(err(
            "PAWPATH_SESSION_WARNING_MS",
            "must be less than PAWPATH_SESSION_RESET_MS",
        )),
        (Some(_), None) => Err(err(
            "PAWPATH_SESSION_RESET_MS",
            "is needed with PAWPATH_SESSION_WARNING_MS: set both or neither",
        )),
        (None, Some(_)) => Err(err(
            "PAWPATH_SESSION_WARNING_MS",
            "is needed with PAWPATH_SESSION_RESET_MS: set both or neither",
        )),
    }
}

/// The traffic one server takes: the rate limits, the history's ceiling, the database's
/// connections and the connection limits.
pub(super) struct Traffic {
    pub(super) lookups_per_address: u64,
    pub(super) retrievals_per_address: u64,
    pub(super) session_burst: u64,
    pub(super) session_saves_per_minute: u64,
    pub(super) history_ceiling: i64,
    pub(super) database_connections: u32,
    pub(super) limits: Limits,
}

impl Traffic {
    /// Behind a client address header every connection is the proxy's, so no limit per address.
    pub(super) fn read(
        get: &impl Fn(&str) -> Option<String>,
        behind_proxy: bool,
    ) -> Result<Self, ConfigError> {
        Ok(Self {
            lookups_per_address: number_in(
                get,
                "PAWPATH_LOOKUPS_PER_ADDRESS",
                1..=10_000_000,
                1_000,
            )?,
            retrievals_per_address: number_in(
                get,
                "PAWPATH_RETRIEVALS_PER_ADDRESS",
                1..=10_000_000,
                1_000,
            )?,
            session_burst: number_in(get, "PAWPATH_SESSION_BURST", 1..=1_000_000, 120)?,
            session_saves_per_minute: number_in(
                get,
                "PAWPATH_SESSION_SAVES_PER_MINUTE",
                1..=6_000_000,
                120,
            )?,
            history_ceiling: i64::try_from(number_in(
                get,
                "PAWPATH_HISTORY_CEILING",
                10..=100_000,
                u64::try_from(HISTORY_CEILING).unwrap_or(500),
            )?)
            .unwrap_or(HISTORY_CEILING),
            database_connections: u32::try_from(number_in(
                get,
                "PAWPATH_DATABASE_CONNECTIONS",
                3..=1_000,
                u64::from(DATABASE_CONNECTIONS),
            )?)
            .unwrap_or(DATABASE_CONNECTIONS),
            limits: limits(get, behind_proxy)?,
        })
    }
}

/// The connection limits (`Limits`).
fn limits(
    get: &impl Fn(&str) -> Option<String>,
    behind_proxy: bool,
) -> Result<Limits, ConfigError> {
    let defaults = Limits::default();
    let size = |name: &'static str, default: usize| -> Result<usize, ConfigError> {
        let n = number_in(get, name, 1..=1_000_000, default as u64)?;
        Ok(usize::try_from(n).unwrap_or(default))
    };
    let per_address = size("PAWPATH_CONNECTIONS_PER_ADDRESS", 64)?;
    Ok(Limits {
        header_timeout_ms: number_in(
            get,
            "PAWPATH_HEADER_TIMEOUT_MS",
            100..=600_000,
            defaults.header_timeout_ms,
        )?,
        request_timeout_ms: number_in(
            get,
            "PAWPATH_REQUEST_TIMEOUT_MS",
            100..=600_000,
            defaults.request_timeout_ms,
        )?,
        max_connections: size("PAWPATH_MAX_CONNECTIONS", defaults.max_connections)?,
        connections_per_address: (!behind_proxy).then_some(per_address),
        body_timeout_ms: number_in(
            get,
            "PAWPATH_BODY_TIMEOUT_MS",
            100..=600_000,
            defaults.body_timeout_ms,
        )?,
        body_min_rate: number_in(
            get,
            "PAWPATH_BODY_MIN_RATE",
            1..=100_000_000,
            defaults.body_min_rate,
        )?,
    })
}
