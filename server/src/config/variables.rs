//! Every variable pawpath reads from its environment, with its default and what it means: the
//! one table the operator's guide's configuration table is made from (`server/deploy/README.md`;
//! a test keeps them equal, and another that every variable `Config` reads is here).

/// One row of the operator's guide: the variable (or variables set together), its default and
/// what it does.
#[derive(Debug, Clone, Copy)]
pub struct Variable {
    pub names: &'static [&'static str],
    pub default: &'static str,
    pub meaning: &'static str,
}

/// The variables in the order the operator's guide lists them.
pub const VARIABLES: &[Variable] = &[
    Variable {
        names: &["PORT"],
        default: "`8080`",
        meaning: "where pawpath listens",
    },
    Variable {
        names: &["DATABASE_URL"],
        default: "`sqlite://./data/pawpath.db?mode=rwc`",
        meaning: "`sqlite:…` or `postgres://…`; migrations run at start",
    },
    Variable {
        names: &["PAWPATH_SECRET_KEY"],
        default: "generated once into `./data/secret.key`",
        meaning: "base64, at least 32 bytes; signs CSRF tokens",
    },
    Variable {
        names: &["PAWPATH_DATA_DIR"],
        default: "`./data`",
        meaning: "where the default database and generated secret live",
    },
    Variable {
        names: &["PAWPATH_DEFINITIONS"],
        default: "`.`",
        meaning: "the folder holding `journeys/` and `questions/`",
    },
    Variable {
        names: &["PAWPATH_STATIC_DIR"],
        default: "`renderer/dist`",
        meaning: "the built renderer",
    },
    Variable {
        names: &["PAWPATH_PUBLIC_URL"],
        default: "`http://localhost:$PORT`",
        meaning: "an `https://` address marks the session cookie Secure and sends `Strict-Transport-Security`",
    },
    Variable {
        names: &["PAWPATH_LOG_FORMAT"],
        default: "`json`",
        meaning: "`json` or `pretty` (structured logs through `tracing`)",
    },
    Variable {
        names: &["PAWPATH_ADDRESS_PROVIDER"],
        default: "`builtin`",
        meaning: "`builtin` (offline data, `server/data/addresses.json`) or `loqate` (with `PAWPATH_LOQATE_KEY`, and `PAWPATH_LOQATE_URL`, default `https://api.addressy.com`); the key is never logged",
    },
    Variable {
        names: &["PAWPATH_LOQATE_URL"],
        default: "`https://api.addressy.com`",
        meaning: "Loqate's API, with `PAWPATH_ADDRESS_PROVIDER=loqate` (a local fake's address in tests)",
    },
    Variable {
        names: &["PAWPATH_LOQATE_KEY"],
        default: "required with `loqate`",
        meaning: "the Loqate account's key; never logged",
    },
    Variable {
        names: &["PAWPATH_LISTEN_ADDR"],
        default: "`0.0.0.0`",
        meaning: "the address it listens on (`127.0.0.1` behind a proxy on the same machine, `::` for IPv6)",
    },
    Variable {
        names: &["PAWPATH_CLIENT_IP_HEADER"],
        default: "unset",
        meaning: "behind a load balancer, the header our proxies append the customer's address to (for example `x-forwarded-for`); the rate limits count per address. A request without a usable address where the proxies write it (the header missing, too few entries, not an address) did not come through them and is refused with 400 naming the header, never counted against one shared address",
    },
    Variable {
        names: &["PAWPATH_TRUSTED_PROXIES"],
        default: "`1`",
        meaning: "how many proxies of ours stand in front and append to that header: the customer's address is the entry the outermost of them wrote, that many from the right; entries to its left were written by the client and are never believed",
    },
    Variable {
        names: &["PAWPATH_LOOKUPS_PER_ADDRESS"],
        default: "`1000`",
        meaning: "address and vet lookups one client address may make in any 15 minutes (each session may make 60; a Loqate lookup is paid)",
    },
    Variable {
        names: &["PAWPATH_RETRIEVALS_PER_ADDRESS"],
        default: "`1000`",
        meaning: "quote retrievals one client address may try in any 15 minutes (many customers share one address; each session and each quote reference may be tried 10 times)",
    },
    Variable {
        names: &["PAWPATH_SESSION_BURST", "PAWPATH_SESSION_SAVES_PER_MINUTE"],
        default: "`120`, `120`",
        meaning: "how many state-changing calls one quote may take at once, and how fast that allowance comes back; past it a call is answered 429 with `Retry-After`. The allowance is kept with the quote in the database, so it holds across sessions (a retrieval, a new cookie) and across every server behind the balancer",
    },
    Variable {
        names: &["PAWPATH_HISTORY_CEILING"],
        default: "`500`",
        meaning: r#"the most transitions one quote's history holds (10 to 100,000); see "Safe against abuse""#,
    },
    Variable {
        names: &["PAWPATH_DATABASE_CONNECTIONS"],
        default: "`24`",
        meaning: "the most PostgreSQL connections one instance opens (3 to 1,000), each when first needed: instances together stay under the database's `max_connections` (100 by default)",
    },
    Variable {
        names: &["PAWPATH_HEADER_TIMEOUT_MS"],
        default: "`10000`",
        meaning: "the time a connection has to send a request's headers, from when it opens or from its previous answer: so also how long an idle keep-alive connection stays open",
    },
    Variable {
        names: &["PAWPATH_REQUEST_TIMEOUT_MS"],
        default: "`30000`",
        meaning: "the most one request may take, body and answer included; past it the answer is 408",
    },
    Variable {
        names: &["PAWPATH_MAX_CONNECTIONS"],
        default: "`1024`",
        meaning: "connections open at once (keep it below the process's open-file limit); a new one at the limit closes the oldest connection with no request in flight (idle, or still sending headers), failing that the slowest sender of a request body (fewest bytes a second, once it has sent for a second); when every one is busy answering, the new one is closed instead",
    },
    Variable {
        names: &["PAWPATH_CONNECTIONS_PER_ADDRESS"],
        default: "`64`",
        meaning: "connections open at once from one client address (a browser opens at most six, and a mobile carrier's shared address a few dozen); a new one past it closes that address's own oldest idle connection or slowest sender, or is closed itself. Not applied behind `PAWPATH_CLIENT_IP_HEADER`: there every connection is the proxy's, and the proxy holds the clients' own (set its per-client limits there)",
    },
    Variable {
        names: &["PAWPATH_BODY_TIMEOUT_MS"],
        default: "`10000`",
        meaning: "the time a request body has to arrive, to begin with (as Apache's `RequestReadTimeout body=10,MinRate=500`)",
    },
    Variable {
        names: &["PAWPATH_BODY_MIN_RATE"],
        default: "`500`",
        meaning: "bytes a second a request body must keep up: each 500 bytes received give it a second more, so a customer's save of a few kilobytes on a poor mobile link (a few kilobytes a second) is never cut, and a 3 MB certificate photo has its whole request timeout; a body that falls behind is answered 408 and its connection closed (`pawpath_slow_bodies_total`)",
    },
    Variable {
        names: &["PAWPATH_TEST_MODE"],
        default: "off",
        meaning: "`1` adds `POST /api/test/patch` for scripted flows (refused with an `https://` public URL)",
    },
    Variable {
        names: &["PAWPATH_DEV_RELOAD"],
        default: "off",
        meaning: "`1` (development): when a file under `journeys/` or `questions/` changes, the definitions are loaded and checked again as at start; a set that passes is served from the next request, one that fails is refused with the lint's errors in the log and the last good set goes on being served (refused with an `https://` public URL)",
    },
    Variable {
        names: &["PAWPATH_ENCRYPTION_KEY"],
        default: "generated once into `./data/encryption.key`",
        meaning: "base64 of exactly 32 bytes: the AES-256-GCM key bank account numbers are encrypted with at rest",
    },
    Variable {
        names: &["PAWPATH_MODULUS_TABLES"],
        default: "`server/data/vocalink` under `PAWPATH_DEFINITIONS`",
        meaning: "the folder with Vocalink's `valacdos.txt` and `scsubtab.txt` (either Vocalink's fixed-width layout or comma-separated); a newer table dropped in needs no code change",
    },
    Variable {
        names: &["PAWPATH_SANCTIONS_LIST"],
        default: "`server/data/sanctions/ConList.csv` under `PAWPATH_DEFINITIONS` (fictional)",
        meaning: "OFSI's consolidated list as published (`ConList.csv`), screened before every purchase: download it daily and restart; a file that is not the list stops the start, naming file and line (`server/data/sanctions/README.md`)",
    },
    Variable {
        names: &["PAWPATH_SANCTIONS_THRESHOLD"],
        default: "`90`",
        meaning: "how alike (per cent, 70 to 100) the policyholder's name and a listed name must be to stop a purchase for a call; each stop is in the quote's log and counted in `pawpath_screening_referrals_total`",
    },
    Variable {
        names: &["PAWPATH_SESSION_WARNING_MS", "PAWPATH_SESSION_RESET_MS"],
        default: "unset: each brand's times",
        meaning: r#"set both, on test hosts, to shorten the idle time before the inactivity warning and before the quote is reset for every brand (journey.md §9: "shorter test values apply on local and test hosts"); unset, each brand's own times apply (14,280,000 / 14,400,000 ms, or the brand file's `session`); the server resets an idle quote on its own clock too"#,
    },
    Variable {
        names: &["PAWPATH_AGGREGATOR_KEYS"],
        default: "unset (off)",
        meaning: "`ctm=<key>,msm=<key>`: each comparison site's key for the inbound quote API (codes ctm, gcp, msm, cnf, qze, mon; keys 32+ characters, all different); never logged",
    },
    Variable {
        names: &["PAWPATH_ADMIN_TOKEN"],
        default: "unset (off)",
        meaning: "at least 32 characters: the token of the internal endpoints (`GET /internal/quotes/{reference}/pricing` and `…/replay` as a bearer token, the `/internal/funnel` and `/internal/replay` pages as an HTTP Basic password); never logged",
    },
    Variable {
        names: &["PAWPATH_SMTP_URL"],
        default: "unset: emails wait in the outbox",
        meaning: "the mail server: `smtp://host:port` (a local relay, plain), `smtp://user:password@host:587?tls=required` (STARTTLS) or `smtps://user:password@host` (TLS); never logged",
    },
    Variable {
        names: &["PAWPATH_MAIL_FROM"],
        default: "`no-reply@pawpath.invalid`",
        meaning: "the address emails come from; the brand's name is shown with it",
    },
    Variable {
        names: &["PAWPATH_MAIL_RETRY_MS"],
        default: "`30000`",
        meaning: "the delay before an undelivered email is tried again; it doubles with each failure, up to an hour",
    },
    Variable {
        names: &["PAWPATH_QUOTE_REMINDER_DAYS"],
        default: "`7`",
        meaning: "how many days before a quote expires its reminder is sent (0 to 29; 0 sends none): once per quote, only to a quote that reached review and was not opted out, at most one a day to one address, through the outbox",
    },
    Variable {
        names: &["PAWPATH_REMINDER_INTERVAL_MS"],
        default: "`900000`",
        meaning: "how often the reminder job looks for quotes due one (any number of servers may run it: each quote's reminder is decided once)",
    },
    Variable {
        names: &["PAWPATH_METRICS_TOKEN"],
        default: "unset (`/metrics` is 404)",
        meaning: "at least 32 characters, not the admin token: the bearer token a Prometheus scraper sends for `GET /metrics`; never logged",
    },
    Variable {
        names: &["PAWPATH_SHUTDOWN_DRAIN_MS"],
        default: "`5000`",
        meaning: "on SIGTERM, how long pawpath goes on answering while `/readyz` says 503 (and every answer closes its connection), so the load balancer moves traffic away before it stops accepting; set it above the balancer's health-check interval times its failure threshold (0 to 120,000)",
    },
    Variable {
        names: &["PAWPATH_RETENTION_DAYS"],
        default: "`90`",
        meaning: "a quote never bought is purged this many days after it last changed (31 to 3,650; a quote is valid for 30)",
    },
    Variable {
        names: &["PAWPATH_PURGE_INTERVAL_MS"],
        default: "`3600000`",
        meaning: "how often the purge job runs (any number of servers may run it); `0` turns it off for a deployment that runs `pawpath purge` from its own scheduler",
    },
    Variable {
        names: &["PAWPATH_POLICY_WEBHOOK_URL"],
        default: "unset: policy events wait in the database; required on https",
        meaning: "where every policy event is POSTed for the insurer's systems (below); https on an https host",
    },
    Variable {
        names: &["PAWPATH_POLICY_WEBHOOK_SECRET"],
        default: "required with the URL",
        meaning: "the Standard Webhooks signing secret: `whsec_` and base64 of 24 to 64 bytes, shared with the receiver; never logged",
    },
    Variable {
        names: &["PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY"],
        default: "required with the URL",
        meaning: "the receiver's RSA public key (2,048 to 8,192 bits), as PEM (`-----BEGIN PUBLIC KEY-----`) inline or the path of a file: Direct Debit account numbers are sealed to it",
    },
    Variable {
        names: &["PAWPATH_POLICY_WEBHOOK_RETRY_MS"],
        default: "`30000`",
        meaning: "the delay before a failed event is tried again; it doubles with each failure, up to an hour, for as long as it takes",
    },
    Variable {
        names: &["PAWPATH_PAYMENT_PROVIDER"],
        default: "`test` on http hosts; `stripe` required on https",
        meaning: "where cards go for brands that take them: `stripe` (Stripe's PaymentIntents, with 3-D Secure; below), or `test`, the local test provider, which takes no real money and which an https host refuses",
    },
    Variable {
        names: &["PAWPATH_STRIPE_SECRET_KEY"],
        default: "required with `stripe`",
        meaning: "the account's secret key (`sk_…`, or a restricted key `rk_…` allowed to read PaymentMethods and write PaymentIntents); never logged",
    },
    Variable {
        names: &["PAWPATH_STRIPE_PUBLISHABLE_KEY"],
        default: "required with `stripe`",
        meaning: "the account's publishable key (`pk_…`), given to the browser for Stripe's card fields",
    },
    Variable {
        names: &["PAWPATH_STRIPE_WEBHOOK_SECRET"],
        default: "required with `stripe`",
        meaning: "the signing secret (`whsec_…`) of the webhook endpoint `https://<host>/payments/webhook` set up in Stripe for `payment_intent.succeeded` and `payment_intent.payment_failed`",
    },
    Variable {
        names: &["PAWPATH_STRIPE_API_URL"],
        default: "`https://api.stripe.com`",
        meaning: "Stripe's API (a local fake's address in tests); https on an https host",
    },
    Variable {
        names: &["PAWPATH_STRIPE_JS_URL"],
        default: "`https://js.stripe.com/v3/`",
        meaning: "Stripe.js, loaded by the payment page for a card payer only; its origin and the API's are added to the pages' Content-Security-Policy (`script-src`, `connect-src`, `frame-src`)",
    },
    Variable {
        names: &["PAWPATH_STRIPE_TIMEOUT_MS"],
        default: "20,000 (100 to 60,000)",
        meaning: "how long a call to Stripe may take; a payment whose answer is lost to it is asked for again with the same idempotency key and the same parameters, never made twice",
    },
    Variable {
        names: &["PAWPATH_CARD_RECONCILE_MS"],
        default: "60,000 (100 to 3,600,000)",
        meaning: "how often card payments whose outcome is not known (the answer lost, a saved 5xx, no webhook) are asked about at the provider: a payment taken buys the quote if it is the quote's latest attempt for the amount due, otherwise it is refunded; every server may run it",
    },
    Variable {
        names: &["PAWPATH_CARD_RECONCILE_AFTER_MS"],
        default: "300,000 (1,000 to 86,400,000; more than twice `PAWPATH_STRIPE_TIMEOUT_MS`)",
        meaning: "how old an attempt is before it is reconciled: past any request still asking about it",
    },
];

/// The operator's guide's configuration table, as markdown.
pub fn operators_table() -> String {
    let mut out = String::from("| variable | default | meaning |\n|---|---|---|\n");
    for variable in VARIABLES {
        let names: Vec<String> = variable.names.iter().map(|n| format!("`{n}`")).collect();
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            names.join(", "),
            variable.default,
            variable.meaning
        ));
    }
    out
}
