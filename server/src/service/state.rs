//! What every request is served with: the definitions, the store and the outside services, and
//! the answers made from the definitions once.

use std::sync::Arc;

use engine::Definitions;

use crate::config::Config;
use crate::store::Store;
use crate::{addresses, banks, mail, payments, policies, vets};

/// Everything a request handler needs. Cheap to clone: one count on a shared [`Shared`], not one
/// per service (the HTTP layer clones the state for every extractor and layer of every request).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> Self {
        Self(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] shares. The store and the integrations are the service's: a route (or
/// anything outside `service/`) that reaches for one does not compile; it calls a service
/// function instead. The definitions, the configuration and the shutdown state are anyone's.
///
/// A route that reaches past the service to the store does not build:
///
/// ```compile_fail,E0616
/// async fn route(state: &pawpath::service::state::AppState) {
///     let _ = state.store.quote_by_ref("PP-123").await;
/// }
/// ```
///
/// nor to an integration:
///
/// ```compile_fail,E0616
/// fn route(state: &pawpath::service::state::AppState) {
///     let _ = &state.addresses;
/// }
/// ```
///
/// while the definitions and the configuration are anyone's, and a service function is how a
/// route reaches a quote:
///
/// ```
/// async fn route(state: &pawpath::service::state::AppState) {
///     let _ = state.defs.version();
///     let _ = state.config.secure_cookies();
///     let _ = pawpath::service::quote::by_reference(state, "PP-123").await;
/// }
/// ```
#[derive(Clone)]
pub struct Shared {
    pub config: Arc<Config>,
    pub defs: Arc<Definitions>,
    pub(super) store: Store,
    pub(super) vets: Arc<dyn vets::VetDirectory>,
    pub(super) addresses: Arc<addresses::AddressLookup>,
    pub(super) policies: Arc<policies::ExistingPolicies>,
    /// Vocalink's modulus tables (bank details checking), read at start.
    pub(super) bank: Arc<engine::rules::modulus::ModulusTables>,
    /// England and Wales bank holidays, for Direct Debit collection dates.
    pub(super) holidays: Arc<engine::rules::collections::BankHolidays>,
    /// OFSI's consolidated list, screened before each purchase.
    pub(super) sanctions: Arc<crate::sanctions::SanctionsList>,
    /// Which bank a sort code belongs to (the bank details panel).
    pub(super) banks: Arc<banks::BankDirectory>,
    /// The email templates (journeys/emails/), compiled at start.
    pub(super) mail_templates: Arc<mail::MailTemplates>,
    /// The outbox's delivery worker.
    pub(super) mailer: Arc<mail::Mailer>,
    /// The policy events' delivery worker, and the insurer's key for the account number.
    pub(super) events: Arc<crate::events::Dispatcher>,
    /// Where cards go (brands that take cards).
    pub(super) payments: Arc<dyn payments::PaymentProvider>,
    /// The local test provider, when it is the one: its browser endpoint is served too.
    pub test_payments: Option<Arc<payments::test_provider::TestProvider>>,
    /// Answers made from the definitions once and kept while they are served.
    pub made: Arc<Made>,
    /// Whether the server is shutting down, for `/readyz` and the background jobs.
    pub running: Arc<Running>,
    /// How fast each session may change its quote.
    pub pace: Arc<crate::service::pace::Pace>,
}

impl Shared {
    /// The state made of its parts.
    pub fn new(parts: Parts) -> Self {
        let Parts {
            config,
            defs,
            store,
            vets,
            addresses,
            policies,
            bank,
            holidays,
            sanctions,
            banks,
            mail_templates,
            mailer,
            events,
            payments,
            test_payments,
            made,
            running,
            pace,
        } = parts;
        Self {
            config,
            defs,
            store,
            vets,
            addresses,
            policies,
            bank,
            holidays,
            sanctions,
            banks,
            mail_templates,
            mailer,
            events,
            payments,
            test_payments,
            made,
            running,
            pace,
        }
    }

    /// The same state over a newly loaded definition set, everything else kept (the store, the
    /// lookups, the mailer): what is built from the definitions is built again (the existing
    /// policies, the email templates, the test payment provider, what was made from the old).
    pub fn with_definitions(
        &self,
        defs: Arc<Definitions>,
        mail_templates: mail::MailTemplates,
        policies: policies::ExistingPolicies,
    ) -> Result<Self, String> {
        let mut next = self.clone();
        if next.test_payments.is_some() {
            let provider = Arc::new(payments::test_provider::TestProvider::new(Arc::clone(
                &defs,
            ))?);
            next.payments = provider.clone();
            next.test_payments = Some(provider);
        }
        next.defs = defs;
        next.made = Arc::default();
        next.mail_templates = Arc::new(mail_templates);
        next.policies = Arc::new(policies);
        Ok(next)
    }
}

/// What [`AppState`] is made of, at start (`app.rs`): handed over whole, after which the store
/// and the integrations are the service's alone.
pub struct Parts {
    pub config: Arc<Config>,
    pub defs: Arc<Definitions>,
    pub store: Store,
    pub vets: Arc<dyn vets::VetDirectory>,
    pub addresses: Arc<addresses::AddressLookup>,
    pub policies: Arc<policies::ExistingPolicies>,
    /// Vocalink's modulus tables (bank details checking), read at start.
    pub bank: Arc<engine::rules::modulus::ModulusTables>,
    /// England and Wales bank holidays, for Direct Debit collection dates.
    pub holidays: Arc<engine::rules::collections::BankHolidays>,
    /// OFSI's consolidated list, screened before each purchase.
    pub sanctions: Arc<crate::sanctions::SanctionsList>,
    /// Which bank a sort code belongs to (the bank details panel).
    pub banks: Arc<banks::BankDirectory>,
    /// The email templates (journeys/emails/), compiled at start.
    pub mail_templates: Arc<mail::MailTemplates>,
    /// The outbox's delivery worker.
    pub mailer: Arc<mail::Mailer>,
    /// The policy events' delivery worker, and the insurer's key for the account number.
    pub events: Arc<crate::events::Dispatcher>,
    /// Where cards go (brands that take cards).
    pub payments: Arc<dyn payments::PaymentProvider>,
    /// The local test provider, when it is the one: its browser endpoint is served too.
    pub test_payments: Option<Arc<payments::test_provider::TestProvider>>,
    /// Answers made from the definitions once and kept while they are served.
    pub made: Arc<Made>,
    /// Whether the server is shutting down, for `/readyz` and the background jobs.
    pub running: Arc<Running>,
    /// How fast each session may change its quote.
    pub pace: Arc<crate::service::pace::Pace>,
}

/// Shutting down: first draining (`/readyz` answers 503 so the load balancer stops
/// sending requests, which are still answered), then stopping (the background jobs finish what
/// they hold and take nothing new).
#[derive(Debug)]
pub struct Running {
    draining: std::sync::atomic::AtomicBool,
    stop: tokio::sync::watch::Sender<bool>,
}

impl Default for Running {
    fn default() -> Self {
        Self {
            draining: std::sync::atomic::AtomicBool::new(false),
            stop: tokio::sync::watch::Sender::new(false),
        }
    }
}

impl Running {
    pub fn drain(&self) {
        self.draining
            .store(true, std::sync::atomic::Ordering::Release);
    }

    pub fn draining(&self) -> bool {
        self.draining.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Tells the background jobs to stop.
    pub fn stop(&self) {
        self.drain();
        self.stop.send_replace(true);
    }

    /// Whether to stop, for a job below the service layer (the mailer).
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<bool> {
        self.stop.subscribe()
    }

    /// Completes when [`Running::stop`] is called (at once if it was).
    pub fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut told = self.stop.subscribe();
        async move {
            let _ = told.wait_for(|stop| *stop).await;
        }
    }
}

/// Answers made from the definitions once and then sent as they are (what never
/// changes for a definitions version is not remade per request): the breed lists (about 90 KB
/// of JSON), written and compressed once. Each is kept with the version it was made from, so
/// definitions reloaded under it make it again.
#[derive(Debug, Default)]
pub struct Made {
    breeds: std::sync::RwLock<Option<(String, Arc<Encoded>)>>,
    /// Held while an answer is made, so requests that find none wait for the one being made
    /// instead of each making their own.
    making: tokio::sync::Mutex<()>,
}

/// One answer in each content coding a browser may accept.
#[derive(Debug)]
pub struct Encoded {
    pub identity: bytes::Bytes,
    pub br: bytes::Bytes,
    pub gzip: bytes::Bytes,
}

impl Encoded {
    /// `body` as it is, as brotli and as gzip (each at its best quality: this is done once).
    pub fn of(body: Vec<u8>) -> Result<Self, String> {
        use std::io::Write as _;
        let mut br = brotli::CompressorWriter::new(Vec::new(), 4096, 11, 22);
        br.write_all(&body).map_err(|e| format!("brotli: {e}"))?;
        let br = br.into_inner();
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gzip.write_all(&body).map_err(|e| format!("gzip: {e}"))?;
        let gzip = gzip.finish().map_err(|e| format!("gzip: {e}"))?;
        Ok(Encoded {
            identity: body.into(),
            br: br.into(),
            gzip: gzip.into(),
        })
    }
}

impl Made {
    /// The breed lists' answer for definitions `version`: the one kept, or `make`'s, then kept.
    /// Compressing it (brotli at 11: about a quarter of a second for 90 KB) runs on a blocking
    /// thread, not one of the runtime's, and once however many requests ask at the same time.
    pub async fn breeds(
        &self,
        version: &str,
        make: impl FnOnce() -> Result<Vec<u8>, String>,
    ) -> Result<Arc<Encoded>, String> {
        if let Some(kept) = self.kept_breeds(version) {
            return Ok(kept);
        }
        let _making = self.making.lock().await;
        if let Some(kept) = self.kept_breeds(version) {
            return Ok(kept);
        }
        let body = make()?;
        let encoded = tokio::task::spawn_blocking(move || Encoded::of(body))
            .await
            .map_err(|e| format!("compressing: {e}"))??;
        let encoded = Arc::new(encoded);
        *self.breeds.write().unwrap_or_else(|e| e.into_inner()) =
            Some((version.to_owned(), Arc::clone(&encoded)));
        Ok(encoded)
    }

    fn kept_breeds(&self, version: &str) -> Option<Arc<Encoded>> {
        let kept = self.breeds.read().unwrap_or_else(|e| e.into_inner());
        kept.as_ref()
            .filter(|(v, _)| v == version)
            .map(|(_, body)| Arc::clone(body))
    }
}
