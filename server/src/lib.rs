//! pawpath's server: HTTP, storage and integrations around the pure journey engine.
//!
//! `main.rs` reads the configuration and calls [`run`]; tests call [`App::build`] and serve the
//! router on port 0.

pub mod addresses;
pub mod banks;
pub mod config;
pub mod crypto;
pub mod data_file;
pub mod holidays;
pub mod http;
pub mod logs;
pub mod mail;
pub mod metrics;
pub mod payments;
pub mod policies;
pub mod reload;
pub mod routes;
pub mod scanner;
pub mod serve;
pub mod service;
pub mod session;
pub mod signed;
pub mod store;
pub mod vets;

use std::sync::Arc;

use axum::Router;
use engine::Definitions;
use engine::definitions::FsLoader;

use crate::config::Config;
use crate::service::state::AppState;
use crate::store::Store;
use crate::store::report;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    Definitions(#[from] engine::DefinitionErrors),
    #[error("{0}")]
    Store(#[from] store::StoreError),
    #[error("{0}")]
    Data(String),
    #[error("cannot listen on port {port}: {source}")]
    Listen { port: u16, source: std::io::Error },
}

pub struct App {
    pub state: AppState,
    pub router: Router,
    /// The background jobs (the outbox worker, the scheduled jobs): each ends soon after
    /// `state.running.stop()`.
    pub jobs: Vec<tokio::task::JoinHandle<()>>,
}

impl App {
    /// Loads and lints the definitions, connects to the database and migrates it, and builds the
    /// router, and starts the background jobs. Any problem stops here.
    pub async fn build(config: Config) -> Result<Self, StartError> {
        let state = Self::state(config).await?;
        let mut jobs: Vec<_> = state
            .mailer
            .spawn(state.store.clone(), state.running.subscribe())
            .into_iter()
            .collect();
        service::replay::keep_definitions(&state).await;
        jobs.extend(service::reminders::spawn(state.clone()));
        jobs.extend(service::retention::spawn(state.clone()));
        let router = routes::router(state.clone());
        Ok(Self {
            state,
            router,
            jobs,
        })
    }

    /// What serving needs, with no job started and nothing served: the definitions loaded and
    /// linted, the reference data read, the database migrated (what a command such as `pawpath
    /// replay` runs on).
    pub async fn state(config: Config) -> Result<AppState, StartError> {
        let (defs, mail_templates) = load_definitions(&config.definitions_root)?;
        let vets = vets::BuiltInVets::load().map_err(StartError::Data)?;
        let policies = policies::ExistingPolicies::load(&defs).map_err(StartError::Data)?;
        let bank = load_modulus_tables(&config.modulus_tables)?;
        let holidays = holidays::load().map_err(StartError::Data)?;
        let banks = banks::BankDirectory::load().map_err(StartError::Data)?;
        let addresses = match &config.address_provider {
            config::AddressProvider::BuiltIn => addresses::AddressLookup::BuiltIn(
                addresses::BuiltInAddresses::load().map_err(StartError::Data)?,
            ),
            config::AddressProvider::Loqate { url, key } => addresses::AddressLookup::Loqate(
                addresses::LoqateClient::new(url, &key.0).map_err(StartError::Data)?,
            ),
        };
        let mailer = Arc::new(
            mail::Mailer::new(&mail::MailSettings {
                smtp_url: config.smtp_url.clone(),
                from: config.mail_from.clone(),
                retry: std::time::Duration::from_millis(config.mail_retry_ms),
            })
            .map_err(StartError::Data)?,
        );
        let test_payments = match config.payment_provider {
            config::PaymentProviderChoice::Test => Arc::new(
                payments::test_provider::TestProvider::new(Arc::clone(&defs))
                    .map_err(StartError::Data)?,
            ),
        };
        let store = Store::connect(&config.database_url)
            .await?
            .with_history_ceiling(config.history_ceiling);
        store.migrate().await?;
        metrics::install();
        let running = Arc::new(service::state::Running::default());
        let pace = Arc::new(service::pace::Pace::new(
            config.session_burst,
            config.session_saves_per_minute,
        ));
        Ok(AppState::new(service::state::Shared {
            pace,
            payments: test_payments.clone(),
            test_payments: Some(test_payments),
            mail_templates: Arc::new(mail_templates),
            banks: Arc::new(banks),
            mailer,
            config: Arc::new(config),
            defs,
            store,
            vets: Arc::new(vets),
            addresses: Arc::new(addresses),
            policies: Arc::new(policies),
            bank: Arc::new(bank),
            holidays: Arc::new(holidays),
            made: Arc::default(),
            running,
        }))
    }
}

/// The definitions under `root`, linted, and everything rendered from them checked as start-up
/// checks it (`pawpath check` runs exactly this): the copy keys the server uses, the default
/// brand, every product document in every language and the email templates with a sample in
/// every brand's languages. Any problem is an error naming the file.
pub fn load_definitions(
    root: &std::path::Path,
) -> Result<(Arc<Definitions>, mail::MailTemplates), StartError> {
    let defs = Definitions::load(&FsLoader::new(root))?;
    check_server_copy(&defs)?;
    if defs.brand(engine::definitions::DEFAULT_BRAND).is_none() {
        return Err(StartError::Definitions(engine::DefinitionErrors(vec![
            engine::DefinitionError::new(
                "journeys/brands",
                "",
                format!(
                    "no brand {:?}: the brand a quote gets when none is asked for needs journeys/brands/{}.json",
                    engine::definitions::DEFAULT_BRAND,
                    engine::definitions::DEFAULT_BRAND
                ),
            ),
        ])));
    }
    let defs = Arc::new(defs);
    routes::documents::check_all(&defs).map_err(|e| {
        StartError::Data(format!(
            "{e}. Fix: add the copy key to every language, or correct the template"
        ))
    })?;
    let mail_templates =
        mail::MailTemplates::load(&root.join("journeys/emails"), Arc::clone(&defs)).map_err(
            |e| {
                StartError::Data(format!(
                    "{e}. Fix: correct the template at that line, or add the copy key it names to every language"
                ))
            },
        )?;
    Ok((defs, mail_templates))
}

/// Reads Vocalink's weight and substitution tables; a missing file or a bad line stops start-up
/// naming the file and line.
fn load_modulus_tables(
    dir: &std::path::Path,
) -> Result<engine::rules::modulus::ModulusTables, StartError> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path)
            .map_err(|e| StartError::Data(format!("{}: cannot read: {e}", path.display())))
    };
    let weights = read("valacdos.txt")?;
    let substitutions = read("scsubtab.txt")?;
    engine::rules::modulus::ModulusTables::parse(&weights, &substitutions).map_err(|errors| {
        StartError::Data(format!(
            "{}: {}",
            dir.display(),
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ))
    })
}

/// Copy keys the server's own code gives as messages; like the definitions' keys, each must
/// exist in every language, or pawpath does not start.
pub const SERVER_COPY_KEYS: &[&str] = &[
    "vet.postcode.required",
    "vet.postcode.invalid",
    "address.postcode_required",
    "address.postcode_invalid",
    "error.rate_limited",
    "error.too_fast",
    "app.name",
    "app.no_script",
    "email.confirmation.subject",
    "app.brand",
    "header.hours",
    "unsupported.title",
    "unsupported.body",
    "retrieve.title",
];

fn check_server_copy(defs: &Definitions) -> Result<(), StartError> {
    let mut problems = Vec::new();
    for language in defs.languages() {
        for key in SERVER_COPY_KEYS {
            if defs
                .catalogue(language)
                .is_none_or(|c| !c.contains_key(*key))
            {
                problems.push(engine::DefinitionError::new(
                    format!("questions/copy/{language}.json"),
                    "/messages",
                    format!("copy key {key:?}, which the server uses, is missing. Fix: add it to the catalogue"),
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(StartError::Definitions(engine::DefinitionErrors(problems)))
    }
}

/// `pawpath report funnel`: the funnel of the quotes `filter` picks, from the database
/// `config` names, over the journey's steps in order. A journey or brand the definitions do not
/// know is an error naming it.
pub async fn report_funnel(
    config: &Config,
    filter: &report::FunnelFilter,
) -> Result<Vec<report::FunnelRow>, StartError> {
    let defs = Definitions::load(&FsLoader::new(&config.definitions_root))?;
    let Some(journey) = defs.journey(&filter.journey) else {
        let known: Vec<&str> = defs.journeys().map(|j| j.id.as_str()).collect();
        return Err(StartError::Data(format!(
            "--journey: no journey {:?} (journeys: {})",
            filter.journey,
            known.join(", ")
        )));
    };
    if let Some(brand) = &filter.brand
        && defs.brand(brand).is_none()
    {
        return Err(StartError::Data(format!("--brand: no brand {brand:?}")));
    }
    let (steps, terminal) = report::journey_steps(&defs, journey);
    let store = Store::connect(&config.database_url).await?;
    store.migrate().await?;
    let mut funnel = report::Funnel::new(&steps, &journey.start, &terminal);
    let counted = store.funnel(filter, &mut funnel).await;
    store.close().await;
    counted?;
    Ok(funnel.rows())
}

/// `pawpath report experiment <id>`: each variation of experiment `id` over the quotes `filter`
/// picks, control (the first variation) first. An experiment, journey or brand the definitions
/// do not know is an error naming it.
pub async fn report_experiment(
    config: &Config,
    experiment: &str,
    filter: &report::FunnelFilter,
) -> Result<Vec<store::experiments::VariationRow>, StartError> {
    let defs = Definitions::load(&FsLoader::new(&config.definitions_root))?;
    let variations = experiment_variations(&defs, experiment, filter)?;
    let store = Store::connect(&config.database_url).await?;
    store.migrate().await?;
    let rows = store.experiment(filter, experiment, &variations).await;
    store.close().await;
    Ok(rows?)
}

/// The variations of `experiment`, control first, once the filter's journey and brand are
/// known; an error names what is not.
pub fn experiment_variations(
    defs: &Definitions,
    experiment: &str,
    filter: &report::FunnelFilter,
) -> Result<Vec<String>, StartError> {
    let known = defs
        .experiments()
        .map(|e| e.experiments.iter().collect::<Vec<_>>())
        .unwrap_or_default();
    let Some(found) = known.iter().find(|e| e.id == experiment) else {
        return Err(StartError::Data(format!(
            "no experiment {experiment:?} (experiments: {})",
            known
                .iter()
                .map(|e| e.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    if defs.journey(&filter.journey).is_none() {
        return Err(StartError::Data(format!(
            "--journey: no journey {:?}",
            filter.journey
        )));
    }
    if let Some(brand) = &filter.brand
        && defs.brand(brand).is_none()
    {
        return Err(StartError::Data(format!("--brand: no brand {brand:?}")));
    }
    Ok(found.variations.clone())
}

/// `pawpath terminate-policy <number>`: an operator cancels a policy (a free rehoming policy
/// whose pet went back to the centre; its annual link then opens /policy-terminated). True when
/// it was in force.
pub async fn terminate_policy(config: &Config, policy_number: &str) -> Result<bool, StartError> {
    let store = Store::connect(&config.database_url).await?;
    store.migrate().await?;
    let done = store.terminate_policy(policy_number).await?;
    store.close().await;
    Ok(done)
}

/// `pawpath purge [--dry-run]`: quotes never bought and left alone for `PAWPATH_RETENTION_DAYS`
/// purged now, as the scheduled job does (dry run: counted and listed, nothing changed).
pub async fn purge(
    config: &Config,
    dry_run: bool,
) -> Result<service::retention::Purged, StartError> {
    let store = Store::connect(&config.database_url).await?;
    store.migrate().await?;
    let purged = service::retention::purge(
        &store,
        service::retention::cutoff(config.retention_days),
        dry_run,
    )
    .await;
    store.close().await;
    Ok(purged?)
}

/// `pawpath subject export|erase`: a data subject's request, answered and recorded.
pub async fn subject(
    config: &Config,
    erase: bool,
    subject: &store::retention::Subject,
    dry_run: bool,
) -> Result<service::retention::SubjectAnswer, StartError> {
    let store = Store::connect(&config.database_url).await?;
    store.migrate().await?;
    let answer = if erase {
        service::retention::erase(&store, subject, dry_run).await
    } else {
        service::retention::export(&store, subject).await
    };
    store.close().await;
    Ok(answer?)
}

/// `pawpath replay <reference>`: the quote's transitions run again (service::replay).
pub async fn replay(
    config: Config,
    ask: &service::replay::Ask,
) -> Result<service::replay::Replay, StartError> {
    let state = App::state(config).await?;
    let replayed = service::replay::replay(&state, ask).await;
    state.store.close().await;
    replayed.map_err(|e| match e {
        service::error::AppError::NotFound => {
            StartError::Data(format!("no quote has the reference {:?}", ask.reference))
        }
        other => StartError::Data(other.to_string()),
    })
}

/// Completes on SIGTERM (what an orchestrator or `docker stop` sends) or Ctrl-C.
async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
                return;
            }
            Err(e) => tracing::warn!(error = %e, "cannot listen for SIGTERM; Ctrl-C only"),
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// The longest the background jobs get to finish what they hold once told to stop (an email
/// being sent has its SMTP timeout of 30 seconds).
const JOBS_GRACE: std::time::Duration = std::time::Duration::from_secs(35);

/// Serves until SIGTERM or Ctrl-C, then shuts down gracefully (issue 27):
/// 1. draining: `/readyz` answers 503 and every answer closes its connection, for
///    `PAWPATH_SHUTDOWN_DRAIN_MS`, so the load balancer moves traffic to other servers while
///    this one still answers whatever reaches it;
/// 2. no new connections; requests in flight finish (within the request timeout);
/// 3. the background jobs finish what they hold (an email being sent) and claim nothing more;
///    what another server should do is left in the database for it.
pub async fn run(config: Config) -> Result<(), StartError> {
    let port = config.port;
    let listen_addr = config.listen_addr;
    let limits = config.limits;
    let drain = std::time::Duration::from_millis(config.shutdown_drain_ms);
    let app = App::build(config).await?;
    let listener = tokio::net::TcpListener::bind((listen_addr, port))
        .await
        .map_err(|source| StartError::Listen { port, source })?;
    tracing::info!(port, definitions = app.state.defs.version(), backend = ?app.state.store.backend, "pawpath listening");
    let store = app.state.store.clone();
    let running = Arc::clone(&app.state.running);
    // What is made once per definitions version is made now, before a visitor waits for it.
    routes::prepare(app.state.clone());
    let router = if app.state.config.dev_reload {
        tracing::info!("development reload: watching journeys/ and questions/");
        let root = app.state.config.definitions_root.clone();
        reload::reloading(app.state.clone(), root, std::time::Duration::from_secs(1))
    } else {
        app.router
    };
    let draining = Arc::clone(&running);
    serve::serve(listener, router, limits, async move {
        terminated().await;
        tracing::info!(
            drain_ms = drain.as_millis(),
            "shutting down: draining (readyz says 503)"
        );
        draining.drain();
        tokio::time::sleep(drain).await;
        tracing::info!("shutting down: no new connections; finishing requests in flight");
    })
    .await
    .map_err(|source| StartError::Listen { port, source })?;
    running.stop();
    let deadline = tokio::time::Instant::now() + JOBS_GRACE;
    for job in app.jobs {
        if tokio::time::timeout_at(deadline, job).await.is_err() {
            tracing::warn!("a background job still runs after the grace period; its claim lapses");
        }
    }
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}
