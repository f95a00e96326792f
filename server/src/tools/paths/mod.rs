//! Every path through a journey, generated: `pawpath paths <journey> [--brand B]`.
//!
//! The generator walks the journey with the engine itself, from a new quote's document, on one
//! brand. At each step it tries every answer set it has for the call that saves the step: the
//! scripted flows' own request bodies (`tests/flows/*.json`, their named answers expanded), and
//! from each, one variant per other value of every choice the step's question schema offers (an
//! `enum`, or a yes/no), so blocking answers, both sides of guards, species and payment methods
//! the brand does or does not offer are all tried. An answer set is kept where it covers
//! something no earlier one did: a step reached, an exit taken, a guard seen to hold or fail, a
//! blocking rule hit, an outcome (moved, invalid, blocked, refused) on a step. Where the quote can
//! be bought, buying is tried. Each kept way from the start to where it ends (bought, blocked,
//! refused, or nothing new further on) is a path: its calls in order, each with the step and
//! outcome the engine says it leads to, for a test to run against the API.
//!
//! Bounded: at most [`MAX_DEPTH`] calls a path, [`MAX_VARIANTS`] variants an answer set and
//! [`MAX_STATES`] quotes explored a journey and brand.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value, json};

use engine::Definitions;
use engine::definitions::schema::declared_properties;
use engine::definitions::{Journey, Step};
use engine::journey::runtime::{self, Event, Lifecycle, Outcome};
use engine::rules::context::RuleContext;

pub mod print;
pub mod walk;

/// The most calls one path makes.
pub const MAX_DEPTH: usize = 14;
/// The most variants made of one answer set.
pub const MAX_VARIANTS: usize = 60;
/// The most quote states explored for one journey and brand.
pub const MAX_STATES: usize = 400;

/// The call that buys a quote.
pub const PURCHASE: &str = "/api/purchase";

/// One call of a path: what is sent (less the CSRF token), and where the engine says it leads.
#[derive(Debug, Clone, Serialize)]
pub struct PathCall {
    pub call: String,
    pub body: Value,
    /// The step the quote is on after the call.
    pub step: String,
    /// That step's page on the brand (`/quote/your-details`).
    pub page: String,
    /// `moved`, `invalid`, `blocked`, `refused_by_guard` or `refused_by_lifecycle`.
    pub outcome: String,
    /// The blocking rules the call's answers hit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<String>,
}

/// One generated path.
#[derive(Debug, Clone, Serialize)]
pub struct GeneratedPath {
    /// `direct/pos/12`.
    pub id: String,
    pub journey: String,
    pub brand: String,
    /// The journey's first page on the brand, where the quote starts.
    pub start: String,
    pub calls: Vec<PathCall>,
    /// How it ends: `bought`, `blocked: <rule>`, `invalid on <step>`, `refused on <step>`, or
    /// `on <step>` (nothing further covers anything new).
    pub ends: String,
}

/// What the paths of one journey and brand exercise, beside what the journey has.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Coverage {
    pub steps: (usize, usize),
    pub exits: (usize, usize),
    /// Guards seen both to hold and to fail, of those the journey checks.
    pub guards_both_ways: (usize, usize),
    pub blocking_rules: (usize, usize),
    /// The distinct refusals (field error keys: blocking answers, rules, schema checks) met.
    pub refusals: usize,
    /// What the journey has that no path reaches, each named.
    pub missed: Vec<String>,
}

/// The paths of one journey on one brand, and what they cover.
#[derive(Debug, Clone, Serialize)]
pub struct Generated {
    pub journey: String,
    pub brand: String,
    pub paths: Vec<GeneratedPath>,
    pub coverage: Coverage,
    /// Quote states explored.
    pub explored: usize,
}

/// The answer sets to try, by call: each a request body less its CSRF token.
pub type AnswerPool = BTreeMap<String, Vec<Value>>;

/// The scripted flows' request bodies by call, with `{"$use": name, "set": {…}}` expanded from
/// `_answers.json` and `{today±n}` made a UK date from `today`. A file that cannot be read or
/// parsed is an error naming it.
pub fn answer_pool(flows: &Path, today: chrono::NaiveDate) -> Result<AnswerPool, String> {
    let read = |path: &Path| -> Result<Value, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))
    };
    let sets = read(&flows.join("_answers.json"))?;
    let mut files: Vec<_> = std::fs::read_dir(flows)
        .map_err(|e| format!("{}: cannot read the folder: {e}", flows.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".json") && !name.starts_with('_') && name != "flow.schema.json"
        })
        .collect();
    files.sort();
    let mut pool = AnswerPool::new();
    for path in files {
        let flow = read(&path)?;
        for step in flow["steps"].as_array().into_iter().flatten() {
            let (Some(call), Some(answers)) = (step["call"].as_str(), step.get("answers")) else {
                continue;
            };
            if call == PURCHASE {
                continue;
            }
            let body = expand_answers(answers, &sets, today)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let bodies = pool.entry(call.to_owned()).or_default();
            if !bodies.contains(&body) {
                bodies.push(body);
            }
        }
    }
    Ok(pool)
}

/// A flow's answers with `{"$use": name, "set": {…}}` expanded from the named sets and
/// `{today±n}` made a UK date from `today` (what the flows' runners send, and the generator tries).
pub fn expand_answers(
    value: &Value,
    sets: &Value,
    today: chrono::NaiveDate,
) -> Result<Value, String> {
    Ok(match value {
        Value::Object(map) if map.contains_key("$use") => {
            let name = map["$use"].as_str().unwrap_or_default();
            let mut out = sets
                .get(name)
                .cloned()
                .ok_or_else(|| format!("no answer set {name:?} in _answers.json"))?;
            if let (Some(target), Some(Value::Object(set))) = (out.as_object_mut(), map.get("set"))
            {
                for (k, v) in set {
                    target.insert(k.clone(), expand_answers(v, sets, today)?);
                }
            }
            expand_answers(&out, sets, today)?
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), expand_answers(v, sets, today)?)))
                .collect::<Result<Map<_, _>, String>>()?,
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| expand_answers(v, sets, today))
                .collect::<Result<_, _>>()?,
        ),
        Value::String(text) => {
            Value::String(relative_date(text, today).unwrap_or_else(|| text.clone()))
        }
        other => other.clone(),
    })
}

/// "{today}", "{today-1}", "{today+45}" as YYYY-MM-DD.
fn relative_date(text: &str, today: chrono::NaiveDate) -> Option<String> {
    let inner = text.strip_prefix("{today")?.strip_suffix('}')?;
    let days: i64 = if inner.is_empty() {
        0
    } else {
        inner.trim_start_matches('+').parse().ok()?
    };
    Some((today + chrono::Duration::days(days)).to_string())
}

/// The variants of an answer set: for each answer whose question offers choices (an `enum`, a
/// `const` among `oneOf`/`anyOf`, or a yes/no), one copy per other choice.
fn variants(schema: &Value, body: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut pointers = Vec::new();
    choices_at(schema, body, String::new(), &mut pointers);
    for (pointer, choices) in pointers {
        for choice in choices {
            if body.pointer(&pointer) == Some(&choice) {
                continue;
            }
            let mut copy = body.clone();
            if let Some(slot) = copy.pointer_mut(&pointer) {
                *slot = choice;
                out.push(copy);
            }
            if out.len() >= MAX_VARIANTS {
                return out;
            }
        }
    }
    out
}

/// The answers in `value` whose schema offers choices, with the choices.
fn choices_at(schema: &Value, value: &Value, pointer: String, out: &mut Vec<(String, Vec<Value>)>) {
    match value {
        Value::Object(map) => {
            let props = declared_properties(schema);
            for (name, v) in map {
                if let Some((_, sub)) = props.iter().find(|(n, _)| n == name) {
                    choices_at(sub, v, format!("{pointer}/{name}"), out);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items").filter(|i| i.is_object()) {
                for (i, v) in items.iter().enumerate() {
                    choices_at(item, v, format!("{pointer}/{i}"), out);
                }
            }
        }
        Value::Bool(_) => out.push((pointer, vec![json!(true), json!(false)])),
        _ => {
            let mut choices: Vec<Value> = schema
                .get("enum")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for key in ["oneOf", "anyOf"] {
                for option in schema
                    .get(key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(c) = option.get("const") {
                        choices.push(c.clone());
                    }
                }
            }
            if !choices.is_empty() {
                out.push((pointer, choices));
            }
        }
    }
}

/// What one transition exercises: the steps it reaches and the exits walked to them (the
/// position's path, through steps that ask nothing), its outcome on its step, the guards it
/// checked either way, the blocking rules and the refusals (field error keys) it met.
fn items_of(
    record: &runtime::TransitionRecord,
    walked: &[engine::definitions::StepId],
) -> Vec<String> {
    let mut items = vec![format!(
        "outcome:{}:{}",
        record.from,
        record.outcome.as_str()
    )];
    // A step is reached when the quote moves (or is stopped) there, not when it is asked for and
    // refused.
    if matches!(record.outcome, Outcome::Moved | Outcome::Blocked) {
        items.push(format!("step:{}", record.to));
    }
    if record.outcome == Outcome::Moved {
        for pair in walked.windows(2) {
            items.push(format!("step:{}", pair[1]));
            items.push(format!("exit:{}→{}", pair[0], pair[1]));
        }
        if record.from != record.to {
            items.push(format!("exit:{}→{}", record.from, record.to));
        }
    }
    for e in &record.field_errors {
        items.push(format!("refusal:{}", e.key));
    }
    for g in &record.guards {
        items.push(format!("guard:{}:{}", g.guard, g.passed));
    }
    for b in &record.blocks {
        items.push(format!("block:{}", b.id));
    }
    items
}

/// A node of the exploration: the call that made it from its parent.
struct Node {
    parent: Option<usize>,
    call: Option<PathCall>,
    children: usize,
    /// How the call ended, for a leaf.
    ends: String,
}

/// The paths of `journey` on `brand` (see the module's note).
pub fn generate(
    defs: &Definitions,
    journey: &Journey,
    brand: &str,
    pool: &AnswerPool,
    rules: &RuleContext,
) -> Generated {
    let mut covered: BTreeSet<String> = BTreeSet::new();
    let mut nodes = vec![Node {
        parent: None,
        call: None,
        children: 0,
        ends: format!("on {}", journey.start),
    }];
    let mut queue: VecDeque<(usize, Value, Lifecycle, usize)> = VecDeque::new();
    queue.push_back((0, runtime::empty_document(), Lifecycle::Active, 0));
    let mut explored = 0;
    let mut seen_documents: BTreeSet<String> = BTreeSet::new();
    while let Some((node, document, lifecycle, depth)) = queue.pop_front() {
        explored += 1;
        if explored > MAX_STATES || depth >= MAX_DEPTH {
            continue;
        }
        let Ok(position) = runtime::position_of(defs, journey, &document, rules) else {
            continue;
        };
        let Some(step) = journey.step(&position.furthest) else {
            continue;
        };
        let mut tries = candidates(defs, journey, step, pool, true);
        // Steps the quote cannot open yet, each tried once: their guards seen to fail.
        for ahead in journey
            .steps
            .iter()
            .filter(|s| !position.path.contains(&s.id))
        {
            tries.extend(candidates(defs, journey, ahead, pool, false));
        }
        for (call, event) in tries {
            let Ok(result) = runtime::transition(
                defs,
                &journey.id,
                &document,
                lifecycle,
                &event,
                rules.clone(),
            ) else {
                continue;
            };
            let record = &result.record;
            let walked = runtime::position_of(defs, journey, &result.document, rules)
                .map(|p| p.path)
                .unwrap_or_default();
            let new: Vec<String> = items_of(record, &walked)
                .into_iter()
                .filter(|i| !covered.contains(i))
                .collect();
            if new.is_empty() {
                continue;
            }
            covered.extend(new);
            let changed = result
                .effects
                .iter()
                .any(|e| matches!(e, runtime::Effect::SaveQuote | runtime::Effect::ClearQuote));
            let after = walked.last().cloned().unwrap_or_else(|| record.to.clone());
            let body = match &event {
                Event::Submit { answers, .. } => answers.clone(),
                Event::Edit { questions, answers } => {
                    let mut body = answers.clone();
                    body["form"] = json!(questions);
                    body
                }
                _ => json!({ "idempotency_key": format!("generated-path-{}", nodes.len()) }),
            };
            let ends = walk::ends(record, result.lifecycle, &after);
            nodes[node].children += 1;
            nodes.push(Node {
                parent: Some(node),
                call: Some(PathCall {
                    call,
                    body,
                    // The page the answer draws: the step the event moved to (the server's view of
                    // `record.to`), which may be short of the furthest the answers allow.
                    step: record.to.to_string(),
                    page: page_of(defs, journey, brand, &record.to),
                    outcome: record.outcome.as_str().to_owned(),
                    blocks: record.blocks.iter().map(|b| b.id.clone()).collect(),
                }),
                children: 0,
                ends,
            });
            let goes_on = changed
                && record.outcome == Outcome::Moved
                && result.lifecycle == Lifecycle::Active
                && seen_documents.insert(result.document.to_string());
            if goes_on {
                queue.push_back((
                    nodes.len() - 1,
                    result.document,
                    result.lifecycle,
                    depth + 1,
                ));
            }
        }
    }
    let mut paths = Vec::new();
    for (i, leaf) in nodes.iter().enumerate().skip(1) {
        if leaf.children > 0 {
            continue;
        }
        let mut calls = Vec::new();
        let mut at = Some(i);
        while let Some(n) = at {
            if let Some(call) = &nodes[n].call {
                calls.push(call.clone());
            }
            at = nodes[n].parent;
        }
        calls.reverse();
        paths.push(GeneratedPath {
            id: format!("{}/{brand}/{}", journey.id, paths.len() + 1),
            journey: journey.id.clone(),
            brand: brand.to_owned(),
            start: page_of(defs, journey, brand, &journey.start),
            calls,
            ends: leaf.ends.clone(),
        });
    }
    Generated {
        journey: journey.id.clone(),
        brand: brand.to_owned(),
        coverage: coverage(journey, &covered),
        paths,
        explored,
    }
}

/// A step's page on a brand: the journey's base path and the brand's path for the step.
fn page_of(defs: &Definitions, journey: &Journey, brand: &str, step: &str) -> String {
    let path = match (defs.brand(brand), journey.step(step)) {
        (Some(b), Some(s)) => b.step_path(s).to_owned(),
        (None, Some(s)) => s.path.clone(),
        _ => String::new(),
    };
    let page = format!("{}{}", journey.base_path, path);
    match page.strip_suffix('/') {
        Some(trimmed) if !trimmed.is_empty() => trimmed.to_owned(),
        _ => page,
    }
}

/// The calls to try on a step: each answer set for the call that saves its question set (the
/// flows', else the set's `examples`), and (`all`) its variants; buying, where the step leads to the journey's end and asks nothing. Not
/// `all`: the first answer set only.
fn candidates(
    defs: &Definitions,
    journey: &Journey,
    step: &Step,
    pool: &AnswerPool,
    all: bool,
) -> Vec<(String, Event)> {
    let mut out = Vec::new();
    if let Some(questions) = step.questions.as_deref() {
        let call = step.call().into_owned();
        let schema = defs.question_schema(questions).map(|s| s.schema.clone());
        // The scripted flows' answers for the call; for a step no flow fills (one a product team
        // added), the answers its question set's schema gives as `examples`.
        let examples: Vec<Value> = schema
            .as_ref()
            .and_then(|s| s.get("examples"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let bodies = match pool.get(&call) {
            Some(bodies) if !bodies.is_empty() => bodies.as_slice(),
            _ => examples.as_slice(),
        };
        let bodies = if all {
            bodies
        } else {
            &bodies[..bodies.len().min(1)]
        };
        for body in bodies.iter().filter(|b| b.get("form").is_none()) {
            let mut tried = vec![body.clone()];
            if let (Some(schema), true) = (&schema, all) {
                tried.extend(variants(schema, body));
            }
            for answers in tried {
                out.push((
                    call.clone(),
                    Event::Submit {
                        step: step.id.clone(),
                        answers,
                    },
                ));
            }
        }
    }
    // The modals' answers (a body naming its `form`): an edit of that question set, tried on the
    // step the quote is on.
    if all {
        for (call, bodies) in pool {
            for body in bodies {
                let Some(form) = body.get("form").and_then(Value::as_str) else {
                    continue;
                };
                let mut answers = body.clone();
                if let Some(map) = answers.as_object_mut() {
                    map.remove("form");
                }
                out.push((
                    call.clone(),
                    Event::Edit {
                        questions: form.to_owned(),
                        answers,
                    },
                ));
            }
        }
    }
    let leads_to_end = step
        .exits
        .iter()
        .any(|e| journey.step(&e.to).is_some_and(|s| s.terminal));
    if leads_to_end && step.questions.is_none() {
        out.push((PURCHASE.to_owned(), Event::Purchase));
    }
    out
}

/// What the journey has against what was covered.
fn coverage(journey: &Journey, covered: &BTreeSet<String>) -> Coverage {
    let mut missed = Vec::new();
    let count = |all: Vec<String>, missed: &mut Vec<String>| {
        let total = all.len();
        let hit = all
            .into_iter()
            .filter(|item| {
                let hit = covered.contains(item);
                if !hit {
                    missed.push(item.clone());
                }
                hit
            })
            .count();
        (hit, total)
    };
    let steps: Vec<String> = journey
        .steps
        .iter()
        .filter(|s| s.id != journey.start)
        .map(|s| format!("step:{}", s.id))
        .collect();
    let exits: BTreeSet<String> = journey
        .steps
        .iter()
        .flat_map(|s| {
            s.exits
                .iter()
                .map(move |e| format!("exit:{}→{}", s.id, e.to))
        })
        .collect();
    let guards: BTreeSet<&str> = journey
        .steps
        .iter()
        .flat_map(|s| {
            s.requires
                .iter()
                .map(String::as_str)
                .chain(s.exits.iter().filter_map(|e| e.when.as_deref()))
        })
        .collect();
    let blocks: BTreeSet<String> = journey
        .steps
        .iter()
        .flat_map(|s| s.blocking.iter().map(|b| format!("block:{}", b.id)))
        .collect();
    let steps = count(steps, &mut missed);
    let exits = count(exits.into_iter().collect(), &mut missed);
    let mut both = 0;
    for guard in &guards {
        let held = covered.contains(&format!("guard:{guard}:true"));
        let failed = covered.contains(&format!("guard:{guard}:false"));
        if held && failed {
            both += 1;
        } else {
            missed.push(format!(
                "guard:{guard} never seen to {}",
                match (held, failed) {
                    (true, false) => "fail",
                    (false, true) => "hold",
                    _ => "hold or fail",
                }
            ));
        }
    }
    let blocking_rules = count(blocks.into_iter().collect(), &mut missed);
    Coverage {
        steps,
        exits,
        guards_both_ways: (both, guards.len()),
        blocking_rules,
        refusals: covered.iter().filter(|i| i.starts_with("refusal:")).count(),
        missed,
    }
}
/// The paths of `journey` on `brand`, or on every brand that offers it, with answers from the
/// flows under `flows` and Vocalink's tables under `modulus`, today in UK time. A journey or
/// brand the definitions do not have, or a brand that does not offer the journey, is an error
/// naming it.
pub fn generate_for(
    defs: &Definitions,
    journey: &str,
    brand: Option<&str>,
    flows: &Path,
    modulus: &Path,
) -> Result<Vec<Generated>, String> {
    let Some(journey) = defs.journey(journey) else {
        let known: Vec<&str> = defs.journeys().map(|j| j.id.as_str()).collect();
        return Err(format!(
            "no journey {journey:?} (journeys: {})",
            known.join(", ")
        ));
    };
    if journey.linked_only {
        return Err(format!(
            "the {} journey is linked only: its quotes are made from a bought policy's link, never by a new visitor, so there is no new quote to walk it from (its tests start from a link: server/tests/api/rehoming_api.rs)",
            journey.id
        ));
    }
    let offering: Vec<&str> = defs
        .raw
        .brands
        .iter()
        .map(|b| &b.value)
        .filter(|b| b.offers_journey(journey))
        .map(|b| b.id.as_str())
        .collect();
    let brands = match brand {
        Some(b) if offering.contains(&b) => vec![b],
        Some(b) if defs.brand(b).is_some() => {
            return Err(format!(
                "--brand: {b} does not offer the {} journey (brands that do: {})",
                journey.id,
                offering.join(", ")
            ));
        }
        Some(b) => return Err(format!("--brand: no brand {b:?}")),
        None => offering,
    };
    let read = |name: &str| {
        std::fs::read_to_string(modulus.join(name))
            .map_err(|e| format!("{}: cannot read: {e}", modulus.join(name).display()))
    };
    let tables = engine::rules::modulus::ModulusTables::parse(
        &read("valacdos.txt")?,
        &read("scsubtab.txt")?,
    )
    .map_err(|e| format!("{}: {e:?}", modulus.display()))?;
    let bank = std::sync::Arc::new(tables);
    let today = crate::service::quote::uk_today();
    let pool = answer_pool(flows, today)?;
    Ok(brands
        .into_iter()
        .map(|brand| {
            let rules = RuleContext {
                today,
                brand: brand.to_owned(),
                bank: Some(bank.clone()),
                rate_scheme: journey.rate_scheme.clone(),
            };
            generate(defs, journey, brand, &pool, &rules)
        })
        .collect())
}
