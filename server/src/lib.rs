//! pawpath's server: HTTP, storage and integrations around the pure journey engine.
//!
//! `main.rs` reads the configuration and calls [`run`]; tests call [`App::build`] and serve the
//! router on port 0.

pub mod config;
pub mod error;
pub mod routes;
pub mod session;
pub mod store;
pub mod view;

use std::sync::Arc;

use axum::Router;
use engine::Definitions;
use engine::definitions::FsLoader;

use crate::config::Config;
use crate::store::Store;

/// Everything a request handler needs. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub defs: Arc<Definitions>,
    pub store: Store,
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    Definitions(#[from] engine::DefinitionErrors),
    #[error("{0}")]
    Store(#[from] store::StoreError),
    #[error("cannot listen on port {port}: {source}")]
    Listen { port: u16, source: std::io::Error },
}

pub struct App {
    pub state: AppState,
    pub router: Router,
}

impl App {
    /// Loads and lints the definitions, connects to the database and migrates it, and builds the
    /// router. Any problem stops here.
    pub async fn build(config: Config) -> Result<Self, StartError> {
        let defs = Definitions::load(&FsLoader::new(&config.definitions_root))?;
        let store = Store::connect(&config.database_url).await?;
        store.migrate().await?;
        let state = AppState {
            config: Arc::new(config),
            defs: Arc::new(defs),
            store,
        };
        let router = routes::router(state.clone());
        Ok(Self { state, router })
    }
}

/// Serves until interrupted.
pub async fn run(config: Config) -> Result<(), StartError> {
    let port = config.port;
    let app = App::build(config).await?;
    let listener = tokio::net::TcpListener::bind(("0.0.0.0", port))
        .await
        .map_err(|source| StartError::Listen { port, source })?;
    tracing::info!(port, definitions = app.state.defs.version(), backend = ?app.state.store.backend, "pawpath listening");
    let store = app.state.store.clone();
    axum::serve(listener, app.router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|source| StartError::Listen { port, source })?;
    store.close().await;
    Ok(())
}
