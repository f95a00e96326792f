//! Keeping only what the law allows: the purge of quotes never bought, scheduled and
//! by `pawpath purge`, and the subject access and erasure requests (`pawpath subject`).

use std::time::Duration;

use serde_json::{Value, json};

use crate::service::state::AppState;
use crate::store::Store;
use crate::store::error::StoreError;
use crate::store::retention::Subject;

/// Quotes purged in one batch; a pass takes batches until none is left.
const BATCH: i64 = 500;

/// How many references a purge's report lists (the count covers them all).
pub const LISTED: usize = 50;

/// What a purge did, or with `dry_run` would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Purged {
    /// Quotes last changed before this are purged.
    pub cutoff: chrono::DateTime<chrono::Utc>,
    /// How many quotes were purged (or would be).
    pub count: u64,
    /// The references of the first [`LISTED`] of them, the oldest first.
    pub references: Vec<String>,
}

/// The purge's cutoff: `retention_days` before now.
pub fn cutoff(retention_days: u32) -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now() - chrono::Duration::days(i64::from(retention_days))
}

/// Purges every quote never bought left alone since before `cutoff` (dry run: only counts and
/// lists them), in batches of [`BATCH`]. Safe with any number of servers purging at once: each
/// quote is purged by one conditional update, and a quote bought meanwhile is left alone.
pub async fn purge(
    store: &Store,
    cutoff: chrono::DateTime<chrono::Utc>,
    dry_run: bool,
) -> Result<Purged, StoreError> {
    if dry_run {
        let count = store.count_purgeable(cutoff).await?;
        let listed = store.purgeable(cutoff, LISTED as i64).await?;
        return Ok(Purged {
            cutoff,
            count,
            references: listed.into_iter().map(|q| q.quote_ref).collect(),
        });
    }
    let mut count = 0;
    let mut references = Vec::new();
    loop {
        let batch = store.purgeable(cutoff, BATCH).await?;
        let mut any = false;
        for quote in batch {
            if store.purge_quote(&quote.id).await? {
                any = true;
                count += 1;
                if references.len() < LISTED {
                    references.push(quote.quote_ref);
                }
            }
        }
        // An empty batch, or one whose every quote another server purged first: done.
        if !any {
            break;
        }
    }
    Ok(Purged {
        cutoff,
        count,
        references,
    })
}

/// Runs the purge every `PAWPATH_PURGE_INTERVAL_MS` until the server stops (off at 0).
pub fn spawn(state: AppState) -> Option<tokio::task::JoinHandle<()>> {
    if state.config.purge_interval_ms == 0 {
        tracing::info!("the retention purge job is off (PAWPATH_PURGE_INTERVAL_MS=0)");
        return None;
    }
    let every = Duration::from_millis(state.config.purge_interval_ms);
    let stopped = state.running.stopped();
    Some(tokio::spawn(async move {
        tokio::pin!(stopped);
        loop {
            tokio::select! {
                () = &mut stopped => return,
                () = tokio::time::sleep(every) => {}
            }
            let days = state.config.retention_days;
            match purge(&state.store, cutoff(days), false).await {
                Ok(p) if p.count == 0 => {}
                Ok(p) => tracing::info!(
                    purged = p.count,
                    retention_days = days,
                    "retention: quotes never bought purged"
                ),
                Err(e) => {
                    tracing::warn!(error = %e, "retention: the purge failed; tried again at the next pass")
                }
            }
        }
    }))
}

/// What a subject request did.
#[derive(Debug, Clone)]
pub struct SubjectAnswer {
    /// The request's id in `data_requests`.
    pub request: String,
    /// The export (export) or the account of what was done (erase).
    pub report: Value,
}

/// `pawpath subject export`: everything held about the subject's quotes, recorded.
pub async fn export(store: &Store, subject: &Subject) -> Result<SubjectAnswer, StoreError> {
    let quotes = store.subject_quotes(subject).await?;
    let mut exported = Vec::with_capacity(quotes.len());
    for quote in &quotes {
        exported.push(store.export_quote(&quote.id).await?);
    }
    let request = store
        .record_data_request("export", subject, quotes.len(), 0, 0)
        .await?;
    tracing::info!(request = %request, matched_by = %subject.recorded(), quotes = quotes.len(), "subject access request: exported");
    Ok(SubjectAnswer {
        request: request.clone(),
        report: json!({
            "request": request,
            "exported_at": crate::store::db::timestamp(chrono::Utc::now()),
            "quotes": exported,
        }),
    })
}

/// `pawpath subject erase`: the subject's quotes never bought are purged now; bought ones are
/// kept (their policies, mandate and payments are what an insurer must keep) and listed.
/// With `dry_run`, nothing changes and nothing is recorded.
pub async fn erase(
    store: &Store,
    subject: &Subject,
    dry_run: bool,
) -> Result<SubjectAnswer, StoreError> {
    let quotes = store.subject_quotes(subject).await?;
    let mut erased = Vec::new();
    let mut kept = Vec::new();
    // The bought quotes' purchases: the insurer holds their customer's data and is told.
    let mut purchases = Vec::new();
    for quote in &quotes {
        if quote.bought {
            kept.push(quote.quote_ref.clone());
            if let Some(purchase) = store.purchase_of(&quote.id).await? {
                purchases.push((quote.quote_ref.clone(), purchase));
            }
        } else if dry_run || store.purge_quote(&quote.id).await? {
            erased.push(quote.quote_ref.clone());
        }
    }
    let request = if dry_run {
        String::new()
    } else {
        let id = store
            .record_data_request_with(
                "erase",
                subject,
                [quotes.len(), erased.len(), kept.len()],
                |request| {
                    purchases
                        .iter()
                        .map(|(reference, p)| {
                            let numbers: Vec<String> =
                                p.policies.iter().map(|x| x.policy_number.clone()).collect();
                            crate::events::subject_erased(&p.id, request, reference, &numbers)
                        })
                        .collect()
                },
            )
            .await?;
        tracing::info!(request = %id, matched_by = %subject.recorded(), erased = erased.len(), kept = kept.len(), "erasure request");
        id
    };
    Ok(SubjectAnswer {
        request: request.clone(),
        report: json!({
            "request": if dry_run { Value::Null } else { Value::String(request) },
            "dry_run": dry_run,
            "erased": erased,
            "kept_bought": kept,
        }),
    })
}
