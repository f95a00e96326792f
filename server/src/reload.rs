//! Development reload: with `PAWPATH_DEV_RELOAD=1` the server watches the definitions
//! (journeys/, questions/) and, when a file changes, loads and checks the whole set again as
//! start-up does. A set that passes replaces the one being served (requests already under way
//! finish on the old one); a set that fails is refused with the lint's errors in the log, and
//! the last good set goes on being served.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::extract::Request;
use axum::response::IntoResponse;
use tower::ServiceExt as _;

use crate::service::state::AppState;
use crate::startup::StartError;

/// What a change to the definitions would change: every file's path, size and modification
/// time under journeys/ and questions/.
pub fn stamp(root: &Path) -> Vec<(PathBuf, u64, Option<SystemTime>)> {
    let mut out = Vec::new();
    let mut folders = vec![root.join("journeys"), root.join("questions")];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.metadata() {
                Ok(m) if m.is_dir() => folders.push(path),
                Ok(m) => out.push((path, m.len(), m.modified().ok())),
                Err(_) => {}
            }
        }
    }
    out.sort();
    out
}

/// The state over a newly loaded definition set, everything else kept: the store, the lookups,
/// the mailer. What is built from the definitions is built again (the existing policies, the
/// test payment provider's card form).
pub fn with_definitions(state: &AppState, root: &Path) -> Result<AppState, StartError> {
    let (defs, mail_templates) = crate::startup::load_definitions(root)?;
    let policies = crate::policies::ExistingPolicies::load(&defs).map_err(StartError::Data)?;
    let next = state
        .with_definitions(defs, mail_templates, policies)
        .map_err(StartError::Data)?;
    Ok(AppState::new(next))
}

/// A router that serves the current definitions' router, and the task that swaps it when the
/// definitions under `root` change (looked at every `every`).
pub fn reloading(state: AppState, root: PathBuf, every: Duration) -> Router {
    let current = Arc::new(RwLock::new(crate::routes::router(state.clone())));
    let swap = Arc::clone(&current);
    tokio::spawn(async move {
        let mut seen = stamp(&root);
        let mut serving = state;
        loop {
            tokio::time::sleep(every).await;
            let now = stamp(&root);
            if now == seen {
                continue;
            }
            seen = now;
            let started = std::time::Instant::now();
            // Loading is work for the CPU, off the request threads.
            let (from, dir) = (serving.clone(), root.clone());
            let loaded = tokio::task::spawn_blocking(move || with_definitions(&from, &dir)).await;
            match loaded {
                Ok(Ok(next)) => {
                    if next.defs.version() == serving.defs.version() {
                        continue;
                    }
                    tracing::info!(
                        from = serving.defs.version(),
                        to = next.defs.version(),
                        ms = started.elapsed().as_millis() as u64,
                        "definitions reloaded"
                    );
                    let router = crate::routes::router(next.clone());
                    *swap
                        .write()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = router;
                    serving = next;
                    crate::tools::replay::keep_definitions(&serving).await;
                }
                Ok(Err(e)) => tracing::error!(
                    serving = serving.defs.version(),
                    "definitions refused, the last good set is still served: {e}"
                ),
                Err(e) => tracing::error!("definitions reload stopped: {e}"),
            }
        }
    });
    Router::new().fallback(move |request: Request| {
        let router = current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        async move {
            match router.oneshot(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            }
            .into_response()
        }
    })
}
