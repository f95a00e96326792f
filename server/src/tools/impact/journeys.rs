//! What a change does to the journeys: the generated paths (`pawpath paths`) before and after,
//! matched by what they send (new, gone, or the same calls leading elsewhere), and every path of
//! before walked again on the definitions after: the paths whose outcome changes (a customer now
//! blocked, or no longer).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use engine::Definitions;
use engine::rules::context::RuleContext;
use engine::rules::modulus::ModulusTables;

use crate::tools::paths::{self, AnswerPool, GeneratedPath, walk};

/// The most paths listed in each list; past it they are counted.
pub const MAX_LISTED: usize = 60;

/// A path, named.
#[derive(Debug, Clone, Serialize)]
pub struct PathNote {
    /// Its id among the paths of its side (`direct/pos/12`).
    pub id: String,
    /// Its calls, each `call → step (outcome)`.
    pub calls: Vec<String>,
    pub ends: String,
}

/// A path whose calls lead somewhere else after the change.
#[derive(Debug, Clone, Serialize)]
pub struct Rerouted {
    pub id: String,
    pub calls: Vec<String>,
    pub before: String,
    pub after: String,
}

/// A list with its full count.
#[derive(Debug, Clone, Serialize)]
pub struct Listed<T> {
    pub count: usize,
    pub listed: Vec<T>,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Listed {
            count: 0,
            listed: Vec::new(),
        }
    }
}

impl<T> Listed<T> {
    fn push(&mut self, item: T) {
        self.count += 1;
        if self.listed.len() < MAX_LISTED {
            self.listed.push(item);
        }
    }
}

/// What the change does to the journeys' paths.
#[derive(Debug, Clone, Default, Serialize)]
pub struct JourneysImpact {
    /// Why the paths were not generated, where they were not (no scripted flows to start from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_generated: Option<String>,
    /// How many paths each side has, by journey.
    pub paths_before: BTreeMap<String, usize>,
    pub paths_after: BTreeMap<String, usize>,
    /// Paths generated after the change and not before (the same calls in order), and the reverse.
    pub new: Listed<PathNote>,
    pub gone: Listed<PathNote>,
    /// Paths of before whose calls, sent on the definitions after, end elsewhere.
    pub changed: Listed<Rerouted>,
    /// Of those, the ones a blocking answer now stops, and those it no longer stops.
    pub now_blocked: usize,
    pub no_longer_blocked: usize,
}

fn calls_of(path: &GeneratedPath) -> Vec<String> {
    path.calls
        .iter()
        .map(|c| format!("{} → {} ({})", c.call, c.step, c.outcome))
        .collect()
}

/// What a path sends, for matching a path of one side with the other's.
fn sends(path: &GeneratedPath) -> String {
    let calls: Vec<_> = path.calls.iter().map(|c| (&c.call, &c.body)).collect();
    format!(
        "{}/{}/{}",
        path.journey,
        path.brand,
        serde_json::to_string(&calls).unwrap_or_default()
    )
}

/// Every path of each journey a new visitor can start, on each brand offering it.
fn generated(
    defs: &Definitions,
    pool: &AnswerPool,
    bank: &Arc<ModulusTables>,
    today: chrono::NaiveDate,
) -> Vec<GeneratedPath> {
    let mut out = Vec::new();
    for journey in defs.journeys().filter(|j| !j.linked_only) {
        for brand in defs
            .raw
            .brands
            .iter()
            .map(|b| &b.value)
            .filter(|b| b.offers_journey(journey))
        {
            let rules = RuleContext {
                today,
                brand: brand.id.clone(),
                bank: Some(bank.clone()),
                rate_scheme: journey.rate_scheme.clone(),
            };
            out.extend(paths::generate(defs, journey, &brand.id, pool, &rules).paths);
        }
    }
    out
}

/// The paths before and after (see the module's note).
pub fn compare(
    before: &Definitions,
    after: &Definitions,
    pool: &AnswerPool,
    bank: &Arc<ModulusTables>,
    today: chrono::NaiveDate,
) -> JourneysImpact {
    let mut out = JourneysImpact::default();
    let (was, now) = std::thread::scope(|s| {
        let was = s.spawn(|| generated(before, pool, bank, today));
        let now = generated(after, pool, bank, today);
        (was.join().unwrap_or_default(), now)
    });
    for p in &was {
        *out.paths_before.entry(p.journey.clone()).or_default() += 1;
    }
    for p in &now {
        *out.paths_after.entry(p.journey.clone()).or_default() += 1;
    }
    let was_sends: BTreeMap<String, &GeneratedPath> = was.iter().map(|p| (sends(p), p)).collect();
    let now_sends: BTreeMap<String, &GeneratedPath> = now.iter().map(|p| (sends(p), p)).collect();
    let note = |p: &GeneratedPath| PathNote {
        id: p.id.clone(),
        calls: calls_of(p),
        ends: p.ends.clone(),
    };
    for (key, p) in &now_sends {
        if !was_sends.contains_key(key) {
            out.new.push(note(p));
        }
    }
    for (key, p) in &was_sends {
        if !now_sends.contains_key(key) {
            out.gone.push(note(p));
        }
    }
    for p in &was {
        let (Some(journey), Some(_)) = (after.journey(&p.journey), after.brand(&p.brand)) else {
            out.changed.push(Rerouted {
                id: p.id.clone(),
                calls: calls_of(p),
                before: p.ends.clone(),
                after: format!("no journey {} on the brand {}", p.journey, p.brand),
            });
            continue;
        };
        let rules = RuleContext {
            today,
            brand: p.brand.clone(),
            bank: Some(bank.clone()),
            rate_scheme: journey.rate_scheme.clone(),
        };
        let ends = walk::walk(after, journey, &p.calls, &rules);
        if ends != p.ends {
            let blocked = |e: &str| e.starts_with("blocked");
            if blocked(&ends) && !blocked(&p.ends) {
                out.now_blocked += 1;
            } else if blocked(&p.ends) && !blocked(&ends) {
                out.no_longer_blocked += 1;
            }
            out.changed.push(Rerouted {
                id: p.id.clone(),
                calls: calls_of(p),
                before: p.ends.clone(),
                after: ends,
            });
        }
    }
    out
}
