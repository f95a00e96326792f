//! Before a change ships, what it does to customers: `pawpath impact --from A --to B`
//! and the staff page `/internal/impact`.
//!
//! Three sections, each from what pawpath already keeps:
//! - **the definitions**: every change from one set to the other, by file and JSON pointer, grouped
//!   by what the file is (steps and exits, guards, blocking answers, questions and rules, copy in
//!   each language, rates…): [`diff`];
//! - **the journeys**: the generated paths before and after, and the paths whose outcome changes:
//!   [`journeys`];
//! - **real quotes**: a sample of recent quotes run again from their opening documents on both
//!   sets, compared: where they land, what blocks them, how each price moves, overall and by
//!   species, age band, cover type, brand and region: [`quotes`].
//!
//! Bounded: at most [`MAX_SAMPLE`] quotes and [`MAX_EVENTS`] events a quote; the quotes are read
//! [`GROUP`] at a time and run on the machine's cores, so memory holds one group and the tally.
//! Nothing is written: the quotes are only read, and write-only answers, decrypted to run their
//! events again, are never shown (the report shows prices, steps and references).

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use engine::Definitions;
use engine::definitions::MemoryLoader;

use crate::service::staff;
use crate::service::state::AppState;
use crate::store::impact::{GROUP, SampledQuote};

pub mod conditions;
pub mod diff;
pub mod journeys;
pub mod print;
pub mod quotes;
pub mod rerun;

/// The most quotes one report samples.
pub const MAX_SAMPLE: usize = 20_000;
/// The most a staff page's report samples (the page waits for it).
pub const MAX_PAGE_SAMPLE: usize = 2_000;
/// The most events of one quote run again; a longer quote is left out, and counted.
pub const MAX_EVENTS: usize = 200;
/// How far back the sample reaches when no `since` is given, in days.
pub const DEFAULT_DAYS: i64 = 30;

/// Where a definition set comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A folder holding journeys/ and questions/ (the command line only).
    Folder(std::path::PathBuf),
    /// A definitions version a server has run (kept in the database), or `served`.
    Version(String),
}

impl Source {
    /// What `--from`/`--to` name: an existing folder, else a version.
    pub fn parse(text: &str) -> Source {
        let path = std::path::Path::new(text);
        if path.is_dir() {
            Source::Folder(path.to_path_buf())
        } else {
            Source::Version(text.trim().to_owned())
        }
    }

    fn name(&self) -> String {
        match self {
            Source::Folder(p) => p.display().to_string(),
            Source::Version(v) => v.clone(),
        }
    }
}

/// What the report is asked for.
#[derive(Debug, Clone)]
pub struct Ask {
    pub from: Source,
    pub to: Source,
    /// The oldest quote sampled: a UK date (default [`DEFAULT_DAYS`] ago).
    pub since: Option<chrono::NaiveDate>,
    /// How many quotes, at most [`MAX_SAMPLE`].
    pub sample: usize,
    /// The scripted flows the paths start from (`tests/flows`); None leaves the paths out.
    pub flows: Option<std::path::PathBuf>,
}

/// A definition set loaded, with its name and version.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// As asked for (a folder or a version).
    pub source: String,
    pub version: String,
}

/// The report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub from: Side,
    pub to: Side,
    /// The quotes sampled: made on or after this UK date, the most recent first.
    pub since: String,
    pub definitions: diff::DefinitionsDiff,
    pub journeys: journeys::JourneysImpact,
    pub quotes: quotes::QuotesImpact,
    /// How long each part took, in milliseconds.
    pub took_ms: Timings,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Timings {
    pub definitions: u128,
    pub journeys: u128,
    pub quotes: u128,
}

/// A definition set from where `source` says; an error names the source and the problem.
pub async fn load(state: &AppState, source: &Source) -> Result<Arc<Definitions>, String> {
    let files = match source {
        Source::Version(v) if v == "served" || v == state.defs.version() => {
            return Ok(Arc::clone(&state.defs));
        }
        Source::Version(v) => staff::store(state)
            .definitions_files(v)
            .await
            .map_err(|e| format!("definitions version {v}: {e}"))?
            .ok_or_else(|| {
                format!("no definitions version {v:?} is kept (nor is it a folder here)")
            })?,
        Source::Folder(path) => {
            let loader = engine::definitions::FsLoader::new(path.clone());
            let files = tokio::task::spawn_blocking(move || {
                engine::definitions::load::Loader::files(&loader)
            })
            .await
            .map_err(|e| e.to_string())?;
            files.map_err(|e| format!("{}: the definitions do not load: {e}", path.display()))?
        }
    };
    let name = source.name();
    tokio::task::spawn_blocking(move || {
        Definitions::load(&MemoryLoader { files })
            .map(Arc::new)
            .map_err(|e| format!("{name}: the definitions do not load: {e}"))
    })
    .await
    .map_err(|e| e.to_string())?
}

/// The most kept versions a staff page lists.
pub const VERSIONS_LISTED: i64 = 50;

/// The definitions versions kept (newest first, at most [`VERSIONS_LISTED`]): (version, kept at).
pub async fn kept_versions(
    state: &AppState,
) -> Result<Vec<(String, String)>, crate::service::error::AppError> {
    Ok(staff::store(state).kept_versions(VERSIONS_LISTED).await?)
}

/// The report (see the module's note).
pub async fn report(state: &AppState, ask: &Ask) -> Result<Report, String> {
    let before = load(state, &ask.from).await?;
    let after = load(state, &ask.to).await?;
    let today = crate::service::quote::uk_today();
    let since = ask
        .since
        .unwrap_or_else(|| today - chrono::Duration::days(DEFAULT_DAYS));
    let mut took = Timings::default();

    let started = Instant::now();
    let (b, a) = (Arc::clone(&before), Arc::clone(&after));
    let definitions = tokio::task::spawn_blocking(move || diff::diff(&b, &a))
        .await
        .map_err(|e| e.to_string())?;
    took.definitions = started.elapsed().as_millis();

    let started = Instant::now();
    let journeys = match &ask.flows {
        None => journeys::JourneysImpact {
            not_generated: Some("no scripted flows were given to start the paths from".into()),
            ..Default::default()
        },
        Some(flows) => match paths::answer_pool(flows, today) {
            Err(e) => journeys::JourneysImpact {
                not_generated: Some(e),
                ..Default::default()
            },
            Ok(pool) => {
                let (b, a, bank) = (
                    Arc::clone(&before),
                    Arc::clone(&after),
                    staff::bank(state).clone(),
                );
                tokio::task::spawn_blocking(move || journeys::compare(&b, &a, &pool, &bank, today))
                    .await
                    .map_err(|e| e.to_string())?
            }
        },
    };
    took.journeys = started.elapsed().as_millis();

    let started = Instant::now();
    let quotes = sampled(state, &before, &after, since, ask.sample.min(MAX_SAMPLE)).await?;
    took.quotes = started.elapsed().as_millis();

    Ok(Report {
        from: Side {
            source: ask.from.name(),
            version: before.version().to_owned(),
        },
        to: Side {
            source: ask.to.name(),
            version: after.version().to_owned(),
        },
        since: since.to_string(),
        definitions,
        journeys,
        quotes,
        took_ms: took,
    })
}

use crate::tools::paths;

/// A group of quotes with their logs, decrypted, ready to run.
type Ready = Vec<(SampledQuote, crate::store::impact::QuoteLog)>;

/// The sampled quotes run on both sides and compared, a group at a time.
async fn sampled(
    state: &AppState,
    before: &Arc<Definitions>,
    after: &Arc<Definitions>,
    since: chrono::NaiveDate,
    sample: usize,
) -> Result<quotes::QuotesImpact, String> {
    let since = since
        .and_hms_opt(0, 0, 0)
        .and_then(|t| t.and_local_timezone(chrono_tz::Europe::London).earliest())
        .map(|t| {
            t.with_timezone(&chrono::Utc)
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        })
        .ok_or("the date to sample from cannot be read")?;
    let chosen = staff::store(state)
        .impact_sample(&since, i64::try_from(sample).unwrap_or(i64::MAX))
        .await
        .map_err(|e| e.to_string())?;
    let tools = Arc::new(rerun::Tools {
        bank: staff::bank(state).clone(),
    });
    let mut tally = quotes::Tally::default();
    for group in chosen.chunks(GROUP) {
        let ids: Vec<&str> = group.iter().map(|q| q.id.as_str()).collect();
        let mut logs = staff::store(state)
            .impact_logs(&ids, MAX_EVENTS)
            .await
            .map_err(|e| e.to_string())?;
        let mut ready: Ready = Vec::with_capacity(group.len());
        for quote in group {
            tally.sampled();
            let mut log = logs.remove(&quote.id).unwrap_or_default();
            if log.longer {
                tally.not_run(format!("more than {MAX_EVENTS} events"));
                continue;
            }
            let sealed = std::mem::take(&mut log.secrets);
            let secrets: Result<Vec<_>, _> = sealed
                .into_iter()
                .map(|(field, sealed)| {
                    let plain = state
                        .config
                        .encryption_key
                        .decrypt(&quote.id, &field, &sealed)?;
                    Ok::<_, String>((field, plain))
                })
                .collect();
            match secrets {
                Ok(secrets) => {
                    log.secrets = secrets;
                    ready.push((quote.clone(), log));
                }
                Err(_) => tally.not_run("a kept write-only answer cannot be decrypted".into()),
            }
        }
        let (b, a, t) = (Arc::clone(before), Arc::clone(after), Arc::clone(&tools));
        tally = tokio::task::spawn_blocking(move || run_group(&b, &a, &t, &ready, tally))
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(tally.finish())
}

/// One group run on both sides, split between two threads (the machine's cores), and folded into
/// the tally in the sample's order.
fn run_group(
    before: &Definitions,
    after: &Definitions,
    tools: &rerun::Tools,
    ready: &Ready,
    mut tally: quotes::Tally,
) -> quotes::Tally {
    let run_one = |(quote, log): &(SampledQuote, crate::store::impact::QuoteLog)| {
        let (opening, events, secrets) = (&log.opening, &log.transitions, &log.secrets);
        let was = rerun::run(before, tools, quote, opening, events, secrets);
        let now = rerun::run(after, tools, quote, opening, events, secrets);
        (was, now)
    };
    let half = ready.len().div_ceil(2);
    let (first, second) = ready.split_at(half);
    let (mut ran, rest) = std::thread::scope(|s| {
        let other = s.spawn(|| second.iter().map(run_one).collect::<Vec<_>>());
        let ran: Vec<_> = first.iter().map(run_one).collect();
        (ran, other.join().unwrap_or_default())
    });
    ran.extend(rest);
    for ((quote, _), (was, now)) in ready.iter().zip(ran) {
        match (was, now) {
            (Ok(was), Ok(now)) => tally.compare(quote, &was, &now),
            (Err(why), _) => tally.not_run(format!("before: {why}")),
            (_, Err(why)) => tally.not_run(format!("after: {why}")),
        }
    }
    tally
}
