//! The app: the definitions loaded and checked, the state every request shares, the router
//! and the background jobs built from them, and serving until told to stop.

use std::sync::Arc;

use axum::Router;

use crate::config::Config;
use crate::service::state::AppState;
use crate::startup::{StartError, load_definitions, load_modulus_tables};
use crate::store::Store;

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
        let mut jobs = crate::service::ops::start_workers(&state);
        crate::tools::replay::keep_definitions(&state).await;
        jobs.extend(crate::service::reminders::spawn(state.clone()));
        jobs.extend(crate::service::retention::spawn(state.clone()));
        jobs.push(crate::service::card_settle::spawn(state.clone()));
        let router = crate::routes::router(state.clone());
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
        let vets = crate::vets::BuiltInVets::load().map_err(StartError::Data)?;
        let policies = crate::policies::ExistingPolicies::load(&defs).map_err(StartError::Data)?;
        let bank = load_modulus_tables(&config.modulus_tables)?;
        let holidays = crate::holidays::load().map_err(StartError::Data)?;
        let sanctions = crate::sanctions::SanctionsList::load(&config.sanctions_list)
            .map_err(StartError::Data)?;
        tracing::info!(people = sanctions.len(), updated = %sanctions.updated, "sanctions list");
        let banks = crate::banks::BankDirectory::load().map_err(StartError::Data)?;
        let addresses = match &config.address_provider {
            crate::config::AddressProvider::BuiltIn => crate::addresses::AddressLookup::BuiltIn(
                crate::addresses::BuiltInAddresses::load().map_err(StartError::Data)?,
            ),
            crate::config::AddressProvider::Loqate { url, key } => {
                crate::addresses::AddressLookup::Loqate(
                    crate::addresses::LoqateClient::new(url, &key.0).map_err(StartError::Data)?,
                )
            }
        };
        let mailer = Arc::new(
            crate::mail::Mailer::new(&crate::mail::MailSettings {
                smtp_url: config.smtp_url.clone(),
                from: config.mail_from.clone(),
                retry: std::time::Duration::from_millis(config.mail_retry_ms),
            })
            .map_err(StartError::Data)?,
        );
        let events = Arc::new(
            crate::events::Dispatcher::new(config.policy_webhook.clone())
                .map_err(StartError::Data)?,
        );
        let (payments, test_payments): (
            Arc<dyn crate::payments::PaymentProvider>,
            Option<Arc<crate::payments::test_provider::TestProvider>>,
        ) = match &config.payment_provider {
            crate::config::PaymentProviderChoice::Test => {
                let provider = Arc::new(
                    crate::payments::test_provider::TestProvider::new(Arc::clone(&defs))
                        .map_err(StartError::Data)?,
                );
                (provider.clone(), Some(provider))
            }
            crate::config::PaymentProviderChoice::Stripe(settings) => (
                Arc::new(
                    crate::payments::stripe::Stripe::new(settings.clone())
                        .map_err(StartError::Data)?,
                ),
                None,
            ),
        };
        let store = Store::connect_with(&config.database_url, config.database_connections)
            .await?
            .with_history_ceiling(config.history_ceiling);
        store.migrate().await?;
        crate::metrics::install();
        let running = Arc::new(crate::service::state::Running::default());
        let pace = Arc::new(crate::service::pace::Pace::new(
            config.session_burst,
            config.session_saves_per_minute,
        ));
        Ok(AppState::new(crate::service::state::Shared::new(
            crate::service::state::Parts {
                pace,
                payments,
                test_payments,
                mail_templates: Arc::new(mail_templates),
                banks: Arc::new(banks),
                mailer,
                events,
                config: Arc::new(config),
                defs,
                store,
                vets: Arc::new(vets),
                addresses: Arc::new(addresses),
                policies: Arc::new(policies),
                bank: Arc::new(bank),
                holidays: Arc::new(holidays),
                sanctions: Arc::new(sanctions),
                made: Arc::default(),
                running,
            },
        )))
    }
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

/// Serves until SIGTERM or Ctrl-C, then shuts down gracefully:
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
    tracing::info!(port, definitions = app.state.defs.version(), backend = %crate::service::ops::backend(&app.state), "pawpath listening");
    let stopping = app.state.clone();
    let running = Arc::clone(&app.state.running);
    // What is made once per definitions version is made now, before a visitor waits for it.
    crate::routes::prepare(app.state.clone());
    let router = if app.state.config.dev_reload {
        tracing::info!("development reload: watching journeys/ and questions/");
        let root = app.state.config.definitions_root.clone();
        crate::reload::reloading(app.state.clone(), root, std::time::Duration::from_secs(1))
    } else {
        app.router
    };
    let draining = Arc::clone(&running);
    crate::serve::serve(listener, router, limits, async move {
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
    crate::service::ops::close(&stopping).await;
    tracing::info!("stopped");
    Ok(())
}
