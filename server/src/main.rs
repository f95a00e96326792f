//! The `pawpath` binary: read the configuration, set up logging, serve.

use std::process::ExitCode;

use pawpath::config::Config;
use tracing_subscriber::fmt::writer::BoxMakeWriter;

const USAGE: &str = "commands:
  (none)                                  serve
  check [--root DIR]                      lint every definition file as start-up does, then check that
                                          guards can hold, exits lead on and every question set is asked;
                                          exit 0 only when all pass
  graph <journey> [--svg] [--root DIR]    draw a journey: Mermaid text, or SVG with --svg
  paths <journey> [--brand B] [--json] [--root DIR]
                                          every path a customer can take through the journey on
                                          each brand that offers it (or on B): each exit, both
                                          sides of each guard, each blocking answer, tried with the
                                          scripted flows' answers (tests/flows) and their variants;
                                          then what they cover
  report funnel --journey J [--brand B] [--channel C] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                [--csv FILE] [--svg FILE]  the funnel of the quotes started in a period (UK days):
                                          per step entered, moved on, blocked, abandoned, median
                                          time and commonest field errors
  report experiment <id> --journey J [--brand B] [--channel C] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                                          each variation: quotes that saw it, moved on from its
                                          step and bought, with 95% intervals, and each variation's
                                          difference from the first
  replay <reference> [--from N] [--count N] [--json]
                                          a quote's transitions run again as the customer saw
                                          them: what was sent (write-only answers masked), guards,
                                          field errors, prices and the page shown, each on the
                                          definitions version and UK date of its moment, checked
                                          against the log; --json adds each page's view data
  terminate-policy <policy number>        cancel a policy in force
  purge [--dry-run]                       purge quotes never bought and left alone for
                                          PAWPATH_RETENTION_DAYS (dry run: count and list them)
  subject export|erase (--reference REF | --email ADDRESS) [--dry-run]
                                          a data subject's request: export prints everything held
                                          about their quotes as JSON; erase purges their quotes
                                          never bought and lists the bought ones kept; recorded";

/// The value after `--name`, if given.
fn option<'a>(args: &'a [String], name: &str) -> Result<Option<&'a str>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => args
            .get(i + 1)
            .filter(|v| !v.starts_with("--"))
            .map(|v| Some(v.as_str()))
            .ok_or_else(|| format!("{name} needs a value")),
    }
}

/// The options of `pawpath report funnel` (`report experiment` takes the first five).
const FILTER_OPTIONS: [&str; 7] = [
    "--journey",
    "--brand",
    "--channel",
    "--from",
    "--to",
    "--csv",
    "--svg",
];

/// The filter a report is given, from the options `known`; an error names the argument.
fn funnel_filter(
    args: &[String],
    known: &[&str],
) -> Result<pawpath::store::report::FunnelFilter, String> {
    for (i, a) in args.iter().enumerate() {
        if a.starts_with("--") && !known.contains(&a.as_str()) {
            return Err(format!(
                "unknown option {a:?} (options: {})",
                known.join(", ")
            ));
        }
        if !a.starts_with("--") && (i == 0 || !args[i - 1].starts_with("--")) {
            return Err(format!("unexpected argument {a:?}"));
        }
    }
    let date = |name: &str| -> Result<Option<chrono::NaiveDate>, String> {
        option(args, name)?
            .map(|v| {
                chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d")
                    .map_err(|_| format!("{name}: {v:?} is not a date as YYYY-MM-DD"))
            })
            .transpose()
    };
    let journey = option(args, "--journey")?
        .ok_or("--journey is required (for example: --journey direct)")?
        .to_owned();
    let channel = option(args, "--channel")?.map(str::to_owned);
    if let Some(c) = &channel
        && c != "direct"
        && c != "aggregator"
    {
        return Err(format!("--channel: {c:?} is neither direct nor aggregator"));
    }
    let filter = pawpath::store::report::FunnelFilter {
        journey,
        brand: option(args, "--brand")?.map(str::to_owned),
        channel,
        from: date("--from")?,
        to: date("--to")?,
    };
    if let (Some(f), Some(t)) = (filter.from, filter.to)
        && f > t
    {
        return Err(format!("--from {f} is after --to {t}"));
    }
    Ok(filter)
}

/// `pawpath report experiment <id> --journey J [--brand B] [--channel C] [--from] [--to]`.
async fn report_experiment(config: &Config, args: &[String]) -> ExitCode {
    let Some(id) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("pawpath report experiment: name the experiment (for example: cover_type_guide)");
        return ExitCode::from(2);
    };
    let filter = match funnel_filter(&args[1..], &FILTER_OPTIONS[..5]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("pawpath report experiment: {e}");
            return ExitCode::from(2);
        }
    };
    match pawpath::report_experiment(config, id, &filter).await {
        Ok(rows) => {
            println!(
                "experiment {id}, {} journey{}{}{}\n",
                filter.journey,
                filter
                    .brand
                    .as_deref()
                    .map_or(String::new(), |b| format!(", brand {b}")),
                filter
                    .channel
                    .as_deref()
                    .map_or(String::new(), |c| format!(", {c}")),
                period(&filter)
            );
            print!("{}", pawpath::store::experiments::table(&rows));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawpath report experiment: {e}");
            ExitCode::from(1)
        }
    }
}

/// ", quotes started … to …" for a filter with dates.
fn period(filter: &pawpath::store::report::FunnelFilter) -> String {
    match (filter.from, filter.to) {
        (None, None) => String::new(),
        (f, t) => format!(
            ", quotes started {} to {}",
            f.map_or("the start".into(), |d| d.format("%d/%m/%Y").to_string()),
            t.map_or("today".into(), |d| d.format("%d/%m/%Y").to_string())
        ),
    }
}

async fn report(config: &Config, args: &[String]) -> ExitCode {
    if args.first().map(String::as_str) == Some("experiment") {
        return report_experiment(config, &args[1..]).await;
    }
    if args.first().map(String::as_str) != Some("funnel") {
        eprintln!("pawpath report: the reports are `funnel` and `experiment`\n{USAGE}");
        return ExitCode::from(2);
    }
    let args = &args[1..];
    let filter = match funnel_filter(args, &FILTER_OPTIONS) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("pawpath report funnel: {e}");
            return ExitCode::from(2);
        }
    };
    let rows = match pawpath::report_funnel(config, &filter).await {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("pawpath report funnel: {e}");
            return ExitCode::from(1);
        }
    };
    let title = format!(
        "{} funnel{}{}{}",
        filter.journey,
        filter
            .brand
            .as_deref()
            .map_or(String::new(), |b| format!(", brand {b}")),
        filter
            .channel
            .as_deref()
            .map_or(String::new(), |c| format!(", {c}")),
        period(&filter)
    );
    println!("{title}\n");
    print!("{}", pawpath::store::report::table(&rows));
    for (flag, body) in [
        ("--csv", pawpath::store::report::csv(&rows)),
        ("--svg", pawpath::store::report::svg(&title, &rows)),
    ] {
        if let Ok(Some(path)) = option(args, flag) {
            if let Err(e) = std::fs::write(path, body) {
                eprintln!("pawpath report funnel: {flag} {path}: {e}");
                return ExitCode::from(1);
            }
            println!("\nwritten: {path}");
        }
    }
    ExitCode::SUCCESS
}

/// `pawpath purge [--dry-run]`.
async fn purge(config: &Config, args: &[String]) -> ExitCode {
    let dry_run = match args {
        [] => false,
        [flag] if flag == "--dry-run" => true,
        _ => {
            eprintln!("pawpath purge: the only option is --dry-run\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match pawpath::purge(config, dry_run).await {
        Ok(p) => {
            println!(
                "{} {} quote{} never bought, last changed before {} (PAWPATH_RETENTION_DAYS={})",
                if dry_run { "would purge" } else { "purged" },
                p.count,
                if p.count == 1 { "" } else { "s" },
                p.cutoff.format("%Y-%m-%d %H:%M UTC"),
                config.retention_days
            );
            for reference in &p.references {
                println!("  {reference}");
            }
            if p.count > p.references.len() as u64 {
                println!("  … and {} more", p.count - p.references.len() as u64);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawpath purge: {e}");
            ExitCode::from(1)
        }
    }
}

/// `pawpath subject export|erase (--reference REF | --email ADDRESS) [--dry-run]`.
async fn subject(config: &Config, args: &[String]) -> ExitCode {
    let parsed = (|| -> Result<(bool, pawpath::store::retention::Subject, bool), String> {
        let erase = match args.first().map(String::as_str) {
            Some("export") => false,
            Some("erase") => true,
            _ => return Err("say export or erase".into()),
        };
        let rest = &args[1..];
        for (i, a) in rest.iter().enumerate() {
            let known = ["--reference", "--email", "--dry-run"];
            if a.starts_with("--") && !known.contains(&a.as_str()) {
                return Err(format!(
                    "unknown option {a:?} (options: {})",
                    known.join(", ")
                ));
            }
            if !a.starts_with("--")
                && (i == 0 || !matches!(rest[i - 1].as_str(), "--reference" | "--email"))
            {
                return Err(format!("unexpected argument {a:?}"));
            }
        }
        let dry_run = rest.iter().any(|a| a == "--dry-run");
        if dry_run && !erase {
            return Err("--dry-run is for erase (an export changes nothing)".into());
        }
        let subject = match (option(rest, "--reference")?, option(rest, "--email")?) {
            (Some(r), None) if !r.trim().is_empty() => {
                pawpath::store::retention::Subject::Reference(r.to_owned())
            }
            (None, Some(e)) if e.contains('@') => {
                pawpath::store::retention::Subject::Email(e.to_owned())
            }
            (None, Some(e)) => return Err(format!("--email: {e:?} is not an email address")),
            (Some(_), Some(_)) => return Err("give --reference or --email, not both".into()),
            _ => return Err("--reference REF or --email ADDRESS is required".into()),
        };
        Ok((erase, subject, dry_run))
    })();
    let (erase, who, dry_run) = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pawpath subject: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match pawpath::subject(config, erase, &who, dry_run).await {
        Ok(answer) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&answer.report).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawpath subject: {e}");
            ExitCode::from(1)
        }
    }
}

/// The definitions folder for the commands that need nothing else: `--root DIR`, else
/// `PAWPATH_DEFINITIONS`, else the current folder.
fn definitions_root(args: &[String]) -> Result<std::path::PathBuf, String> {
    match args.iter().position(|a| a == "--root") {
        Some(i) => args
            .get(i + 1)
            .map(std::path::PathBuf::from)
            .ok_or_else(|| "--root needs a folder".to_owned()),
        None => Ok(std::env::var("PAWPATH_DEFINITIONS")
            .map_or_else(|_| std::path::PathBuf::from("."), std::path::PathBuf::from)),
    }
}

/// `pawpath check`: the definitions as start-up checks them, each problem on its own line
/// naming file, JSON path and problem.
fn check(args: &[String]) -> ExitCode {
    let root = match definitions_root(args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pawpath check: {e}");
            return ExitCode::from(2);
        }
    };
    match pawpath::load_definitions(&root) {
        Ok((defs, _)) => {
            let deeper = engine::checks::analysis::analyse(&defs);
            if !deeper.is_empty() {
                eprintln!("pawpath check: {}", engine::DefinitionErrors(deeper));
                return ExitCode::from(1);
            }
            println!(
                "pawpath check: the definitions under {} pass (version {}): {} journeys, {} brands, {} languages",
                root.display(),
                defs.version(),
                defs.journeys().count(),
                defs.raw.brands.len(),
                defs.languages().count()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawpath check: {e}");
            ExitCode::from(1)
        }
    }
}

/// `pawpath graph <journey> [--svg]`: the journey as a diagram on standard output.
fn graph(args: &[String]) -> ExitCode {
    let Some(journey_id) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("pawpath graph: name a journey (for example: pawpath graph direct)");
        return ExitCode::from(2);
    };
    let root = match definitions_root(args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pawpath graph: {e}");
            return ExitCode::from(2);
        }
    };
    let defs = match engine::Definitions::load(&engine::definitions::FsLoader::new(&root)) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("pawpath graph: the definitions do not load: {e}");
            return ExitCode::from(1);
        }
    };
    let Some(journey) = defs.journey(journey_id) else {
        let known: Vec<&str> = defs.journeys().map(|j| j.id.as_str()).collect();
        eprintln!(
            "pawpath graph: no journey {journey_id:?} (journeys: {})",
            known.join(", ")
        );
        return ExitCode::from(2);
    };
    let graph = engine::checks::graph::graph(&defs, journey);
    if args.iter().any(|a| a == "--svg") {
        print!("{}", graph.svg());
    } else {
        print!("{}", graph.mermaid());
    }
    ExitCode::SUCCESS
}

/// `pawpath paths <journey> [--brand B] [--json] [--root DIR]`.
fn paths(args: &[String]) -> ExitCode {
    let Some(journey) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("pawpath paths: name a journey (for example: pawpath paths direct)");
        return ExitCode::from(2);
    };
    let known = ["--brand", "--json", "--root"];
    for (i, a) in args.iter().enumerate().skip(1) {
        if a.starts_with("--") && !known.contains(&a.as_str()) {
            eprintln!(
                "pawpath paths: unknown option {a:?} (options: {})",
                known.join(", ")
            );
            return ExitCode::from(2);
        }
        if !a.starts_with("--") && !matches!(args[i - 1].as_str(), "--brand" | "--root") {
            eprintln!("pawpath paths: unexpected argument {a:?}");
            return ExitCode::from(2);
        }
    }
    let (root, brand) = match (definitions_root(args), option(args, "--brand")) {
        (Ok(r), Ok(b)) => (r, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("pawpath paths: {e}");
            return ExitCode::from(2);
        }
    };
    let defs = match engine::Definitions::load(&engine::definitions::FsLoader::new(&root)) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("pawpath paths: the definitions do not load: {e}");
            return ExitCode::from(1);
        }
    };
    let generated = pawpath::service::paths::generate_for(
        &defs,
        journey,
        brand,
        &root.join("tests/flows"),
        &root.join("server/data/vocalink"),
    );
    match generated {
        Ok(all) if args.iter().any(|a| a == "--json") => {
            println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Ok(all) => {
            for g in &all {
                print!("{}", pawpath::service::paths::text(g));
                println!();
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawpath paths: {e}");
            ExitCode::from(2)
        }
    }
}

/// mimalloc, not glibc's malloc (issue 22, measured with the load bench in one run on the
/// project's 2-core machine): glibc's arenas were contended under load (a tenth of the view's
/// CPU went to malloc, free and their locks). With mimalloc the priced view went from 5,371 to
/// 8,126 requests a second, a transition from 2,755 to 4,027 and an inbound quote from 2,203 to
/// 2,936. Built without transparent huge pages, which took the peak memory under load from 47 MB
/// to 74 MB; without them it is 51 MB.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `pawpath replay <reference> [--from N] [--count N] [--json]`.
async fn replay(config: Config, args: &[String]) -> ExitCode {
    let parsed = (|| -> Result<(pawpath::service::replay::Ask, bool), String> {
        let known = ["--from", "--count", "--json"];
        let mut reference = None;
        for (i, a) in args.iter().enumerate() {
            if a.starts_with("--") {
                if !known.contains(&a.as_str()) {
                    return Err(format!(
                        "unknown option {a:?} (options: {})",
                        known.join(", ")
                    ));
                }
            } else if i > 0 && matches!(args[i - 1].as_str(), "--from" | "--count") {
            } else if reference.is_none() {
                reference = Some(a.clone());
            } else {
                return Err(format!("unexpected argument {a:?}"));
            }
        }
        let reference = reference.filter(|r| !r.trim().is_empty()).ok_or(
            "the quote's reference is required (for example: pawpath replay K7QD-2M9X-PT4B)",
        )?;
        let (from, count) =
            pawpath::service::replay::window(option(args, "--from")?, option(args, "--count")?)?;
        let json = args.iter().any(|a| a == "--json");
        Ok((
            pawpath::service::replay::Ask {
                reference: reference.trim().to_uppercase(),
                from,
                count,
                pages: true,
            },
            json,
        ))
    })();
    let (ask, json) = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pawpath replay: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match pawpath::replay(config, &ask).await {
        Ok(replayed) if json => {
            println!(
                "{}",
                serde_json::to_string_pretty(&replayed).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Ok(replayed) => {
            print!("{}", pawpath::service::replay::text(&replayed));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawpath replay: {e}");
            ExitCode::from(1)
        }
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The definition tools need no configuration, database or network.
    match args.first().map(String::as_str) {
        Some("check") => return check(&args[1..]),
        Some("graph") => return graph(&args[1..]),
        Some("paths") => return paths(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {}
    }
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pawpath cannot start: {e}");
            return ExitCode::from(2);
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,sqlx=warn".into());
    // A command's output is its report: its logs go to standard error, written as they are
    // made. The server's go to standard output through a thread of their own (`logs`), so no
    // request waits on whatever reads them.
    let mut flusher = None;
    // Colour codes only for a person at a terminal: a file, a pipe or a log collector gets plain
    // text (`PAWPATH_LOG_FORMAT=pretty` is for reading, and escape codes make it harder).
    let colour = {
        use std::io::IsTerminal as _;
        if args.is_empty() {
            std::io::stdout().is_terminal()
        } else {
            std::io::stderr().is_terminal()
        }
    };
    let writer = if args.is_empty() {
        match pawpath::logs::start(std::io::stdout()) {
            Ok((lines, f)) => {
                flusher = Some(f);
                BoxMakeWriter::new(lines)
            }
            Err(e) => {
                eprintln!("pawpath cannot start: its log thread: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        BoxMakeWriter::new(std::io::stderr)
    };
    if config.log_json {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(writer)
            .json()
            .init();
    } else {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(writer)
            .with_ansi(colour)
            .init();
    }
    if args.first().map(String::as_str) == Some("report") {
        return report(&config, &args[1..]).await;
    }
    if let [command, number] = args.as_slice()
        && command == "terminate-policy"
    {
        return match pawpath::terminate_policy(&config, number).await {
            Ok(true) => {
                println!("policy {number} terminated");
                ExitCode::SUCCESS
            }
            Ok(false) => {
                eprintln!("policy {number}: no such policy in force");
                ExitCode::from(1)
            }
            Err(e) => {
                eprintln!("pawpath cannot terminate {number}: {e}");
                ExitCode::from(1)
            }
        };
    }
    match args.first().map(String::as_str) {
        Some("purge") => return purge(&config, &args[1..]).await,
        Some("subject") => return subject(&config, &args[1..]).await,
        Some("replay") => return replay(config, &args[1..]).await,
        _ => {}
    }
    if let Some(other) = args.first() {
        eprintln!("pawpath: unknown command {other:?}\n{USAGE}");
        return ExitCode::from(2);
    }
    let ran = pawpath::run(config).await;
    // The last lines (the shutdown's) written before the process ends, unless the output has
    // stopped reading.
    if let Some(flusher) = flusher {
        flusher.flush(std::time::Duration::from_secs(2));
    }
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawpath cannot start: {e}");
            ExitCode::from(1)
        }
    }
}
