//! The command line's work for staff (`pawpath report`, `terminate-policy`, `purge`, `subject`,
//! `replay`): each opens what it needs from the configuration, does one thing and closes it.

use engine::Definitions;
use engine::definitions::FsLoader;

use crate::app::App;
use crate::config::Config;
use crate::service;
use crate::startup::StartError;
use crate::store::{self, Store, report};
use crate::tools;

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
/// whose pet went back to the centre; its annual link then opens /policy-terminated), and the
/// insurer is told (`policy.cancelled`, delivered by a running server). True when it was in force.
pub async fn terminate_policy(config: &Config, policy_number: &str) -> Result<bool, StartError> {
    let store = Store::connect(&config.database_url).await?;
    store.migrate().await?;
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::London)
        .date_naive();
    let done = store
        .terminate_policy(policy_number, |purchase| {
            crate::events::policy_cancelled(purchase, policy_number, today)
        })
        .await?;
    store.close().await;
    Ok(done)
}

/// What `pawpath events` is asked.
#[derive(Debug, Clone)]
pub enum EventsAction {
    List {
        failed: bool,
        limit: i64,
        json: bool,
    },
    Retry {
        id: String,
    },
}

/// `pawpath events list [--failed] [--limit N] [--json]` and `pawpath events retry <id>`.
pub async fn events(config: &Config, request: &EventsAction) -> std::process::ExitCode {
    use std::process::ExitCode;
    let done = match request {
        EventsAction::List {
            failed,
            limit,
            json,
        } => events_list(config, *failed, *limit).await.map(|list| {
            if *json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&list).unwrap_or_default()
                );
                return true;
            }
            println!("{} waiting", list.len());
            for e in &list {
                println!(
                    "{}  {}  stream {}  written {}  attempts {}  next {}{}",
                    e.id,
                    e.kind,
                    e.stream,
                    e.created_at,
                    e.attempts,
                    e.next_attempt_at,
                    e.last_error
                        .as_deref()
                        .map(|x| format!("\n    last failure: {x}"))
                        .unwrap_or_default()
                );
            }
            true
        }),
        EventsAction::Retry { id } => events_retry(config, id).await.inspect(|&due| {
            if due {
                println!("event {id} is due now");
            } else {
                eprintln!("event {id}: no such event waiting (unknown, or delivered)");
            }
        }),
    };
    match done {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("pawpath events: {e}");
            ExitCode::from(1)
        }
    }
}

/// `pawpath events list`: the policy events not yet delivered, oldest first.
pub async fn events_list(
    config: &Config,
    failed_only: bool,
    limit: i64,
) -> Result<Vec<store::EventSummary>, StartError> {
    let store = Store::connect(&config.database_url).await?;
    store.migrate().await?;
    let list = store.list_events(failed_only, limit).await;
    store.close().await;
    Ok(list?)
}

/// `pawpath events retry <id>`: an undelivered event made due now; false when there is none.
pub async fn events_retry(config: &Config, id: &str) -> Result<bool, StartError> {
    let store = Store::connect(&config.database_url).await?;
    store.migrate().await?;
    let due = store.retry_event(id).await;
    store.close().await;
    Ok(due?)
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

/// `pawpath replay <reference>`: the quote's transitions run again (tools::replay).
pub async fn replay(
    config: Config,
    ask: &tools::replay::Ask,
) -> Result<tools::replay::Replay, StartError> {
    let state = App::state(config).await?;
    let replayed = tools::replay::replay(&state, ask).await;
    crate::service::ops::close(&state).await;
    replayed.map_err(|e| match e {
        service::error::AppError::NotFound => {
            StartError::Data(format!("no quote has the reference {:?}", ask.reference))
        }
        other => StartError::Data(other.to_string()),
    })
}

/// `pawpath impact --from A --to B [--since D] [--sample N] [--fail-if C]… [--json]`: what the
/// change from A to B does to customers (tools::impact). Exit 0, or 1 when a condition holds;
/// 2 when the report cannot be made (the error says why).
pub async fn impact(
    config: Config,
    ask: &tools::impact::Ask,
    conditions: &[tools::impact::conditions::Condition],
    json: bool,
) -> std::process::ExitCode {
    use std::process::ExitCode;
    let state = match App::state(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pawpath impact: {e}");
            return ExitCode::from(2);
        }
    };
    let made = tools::impact::report(&state, ask).await;
    crate::service::ops::close(&state).await;
    let report = match made {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pawpath impact: {e}");
            return ExitCode::from(2);
        }
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", tools::impact::print::text(&report));
    }
    let holding = tools::impact::conditions::holding(&report, conditions);
    for held in &holding {
        eprintln!("pawpath impact: --fail-if {held}");
    }
    if holding.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
