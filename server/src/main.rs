//! The `pawpath` binary: its command line (clap: every command and option with its help and an
//! example), the configuration, logging, and serving.

use std::process::ExitCode;

use pawpath::config::Config;
use pawpath::tools::definitions as definition_tools;
use tracing_subscriber::fmt::writer::BoxMakeWriter;

/// The command line (clap): every command and option with its help and an example.
#[derive(clap::Parser, Debug)]
#[command(
    name = "pawpath",
    version,
    about = "pawpath: a white-label UK pet insurance quote-and-buy journey. With no command, it serves.",
    after_help = "Examples:\n  pawpath                                  serve (configured from the environment: see server/deploy/README.md)\n  pawpath check                            lint the definitions\n  pawpath replay K7QD-2M9X-PT4B            a quote as its customer saw it\n  pawpath <command> --help                 a command's options"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Lint every definition file as start-up does, then check that guards can hold, exits lead
    /// on and every question set is asked; exit 0 only when all pass.
    #[command(after_help = "Example:\n  pawpath check --root ./definitions-copy")]
    Check {
        #[command(flatten)]
        root: Root,
    },
    /// Draw a journey: Mermaid text, or SVG with --svg.
    #[command(after_help = "Example:\n  pawpath graph direct --svg > direct.svg")]
    Graph {
        /// The journey's id (direct, aggregator, rehoming, annual_rehoming).
        journey: String,
        /// SVG instead of Mermaid text.
        #[arg(long)]
        svg: bool,
        #[command(flatten)]
        root: Root,
    },
    /// Every path a customer can take through a journey on each brand that offers it: each
    /// exit, both sides of each guard, each blocking answer, tried with the scripted flows'
    /// answers (tests/flows) and their variants; then what they cover.
    #[command(after_help = "Example:\n  pawpath paths direct --brand sbp --json")]
    Paths {
        /// The journey's id.
        journey: String,
        /// Only this brand (by default every brand that offers the journey).
        #[arg(long, value_name = "BRAND")]
        brand: Option<String>,
        /// Everything as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        root: Root,
    },
    /// The analysts' reports: the funnel, and an experiment's variations.
    Report {
        #[command(subcommand)]
        report: Report,
    },
    /// A quote's transitions run again as the customer saw them: what was sent (write-only
    /// answers masked), guards, field errors, prices and the page shown, each on the
    /// definitions version and UK date of its moment, checked against the log.
    #[command(after_help = "Example:\n  pawpath replay K7QD-2M9X-PT4B --from 21 --json")]
    Replay {
        /// The quote's reference (as the customer reads it).
        reference: String,
        /// The first transition shown (from 1).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        from: u64,
        /// How many transitions to show.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=20))]
        count: u64,
        /// Everything as JSON, each page's view data included.
        #[arg(long)]
        json: bool,
    },
    /// What a change of the definitions does to customers, before it ships: every change by
    /// file and JSON path, the generated paths before and after, and recent quotes run again on
    /// both (landing step, blocks, each price's change by species, age band, cover, brand and
    /// region). Reads only. Exit 1 when a --fail-if condition holds.
    #[command(
        after_help = "Example:\n  pawpath impact --from served --to ./definitions-copy --sample 10000 --fail-if \"price_rise_p90 > 5%\"\n\nConditions: <measure> <comparison> <number>, % after a number in per cent. In per cent:\nprice_rise_p10, price_rise_median, price_rise_p90, price_rise_max, price_rise_min,\npriced_differently. Counts: different_step, newly_blocked, no_longer_blocked,\ndifferent_outcomes, no_longer_offered, paths_changed, paths_now_blocked, paths_gone,\ndefinitions_changes."
    )]
    Impact {
        /// The definitions before: a folder holding journeys/ and questions/, a kept
        /// definitions version, or `served`.
        #[arg(long)]
        from: String,
        /// The definitions after (as --from).
        #[arg(long)]
        to: String,
        /// Sample quotes made on or after this UK date, YYYY-MM-DD (default 30 days ago).
        #[arg(long, value_name = "DATE")]
        since: Option<chrono::NaiveDate>,
        /// How many of the most recent quotes to run again.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=20_000))]
        sample: u64,
        /// Exit 1 when this holds (repeatable), as "price_rise_p90 > 5%".
        #[arg(long = "fail-if", value_name = "CONDITION", value_parser = pawpath::tools::impact::conditions::parse)]
        fail_if: Vec<pawpath::tools::impact::conditions::Condition>,
        /// The scripted flows the generated paths start from (default: tests/flows in the
        /// folder --to names, else in PAWPATH_DEFINITIONS).
        #[arg(long, value_name = "DIR")]
        flows: Option<std::path::PathBuf>,
        /// Everything as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Cancel a policy in force.
    #[command(after_help = "Example:\n  pawpath terminate-policy PETPS0012345")]
    TerminatePolicy {
        /// The policy's number.
        policy_number: String,
    },
    /// Purge quotes never bought and left alone for PAWPATH_RETENTION_DAYS.
    #[command(after_help = "Example:\n  pawpath purge --dry-run")]
    Purge {
        /// Count and list them; purge nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// A data subject's request: export prints everything held about their quotes as JSON;
    /// erase purges their quotes never bought and lists the bought ones kept; recorded.
    Subject {
        #[command(subcommand)]
        request: SubjectRequest,
    },
    /// The studio's accounts: add a member of staff with a role, list them, or disable one.
    Staff {
        #[command(subcommand)]
        request: pawpath::staff_commands::StaffRequest,
    },
    /// The policy events for the insurer's systems that are waiting: list them, or retry one now.
    Events {
        #[command(subcommand)]
        request: EventsRequest,
    },
}

#[derive(clap::Subcommand, Debug)]
enum EventsRequest {
    /// The events not yet delivered, oldest first: id, type, stream, attempts, next attempt and
    /// the last failure.
    #[command(after_help = "Example:\n  pawpath events list --failed")]
    List {
        /// Only those whose delivery has failed at least once.
        #[arg(long)]
        failed: bool,
        /// The most listed.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(i64).range(1..=10_000))]
        limit: i64,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Make an undelivered event due now (a running server delivers it within seconds).
    #[command(after_help = "Example:\n  pawpath events retry msg_2kX9…")]
    Retry {
        /// The event's id (its webhook-id).
        id: String,
    },
}

/// Where the definitions are, for the commands that read only them.
#[derive(clap::Args, Debug)]
struct Root {
    /// The folder holding journeys/ and questions/ (default: PAWPATH_DEFINITIONS, else the
    /// current folder).
    #[arg(long, value_name = "DIR")]
    root: Option<std::path::PathBuf>,
}

impl Root {
    fn folder(&self) -> std::path::PathBuf {
        self.root.clone().unwrap_or_else(|| {
            std::env::var("PAWPATH_DEFINITIONS")
                .map_or_else(|_| std::path::PathBuf::from("."), std::path::PathBuf::from)
        })
    }
}

#[derive(clap::Subcommand, Debug)]
enum Report {
    /// The funnel of the quotes started in a period (UK days): per step entered, moved on,
    /// blocked, abandoned, median time and commonest field errors.
    #[command(
        after_help = "Example:\n  pawpath report funnel --journey direct --brand pos --from 2026-11-01 --to 2026-11-30 --svg funnel.svg"
    )]
    Funnel {
        #[command(flatten)]
        filter: Filter,
        /// Also write the funnel as CSV to this file.
        #[arg(long, value_name = "FILE")]
        csv: Option<std::path::PathBuf>,
        /// Also draw it as SVG to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
    },
    /// Each variation of an experiment: quotes that saw it, moved on from its step and bought,
    /// with 95% intervals, and each variation's difference from the first.
    #[command(
        after_help = "Example:\n  pawpath report experiment cover_type_guide --journey direct"
    )]
    Experiment {
        /// The experiment's id (journeys/experiments.json).
        id: String,
        #[command(flatten)]
        filter: Filter,
    },
}

/// Which quotes a report counts.
#[derive(clap::Args, Debug)]
struct Filter {
    /// The journey (direct, aggregator, …).
    #[arg(long)]
    journey: String,
    /// Only this brand.
    #[arg(long)]
    brand: Option<String>,
    /// Only this channel.
    #[arg(long, value_parser = ["direct", "aggregator"])]
    channel: Option<String>,
    /// Quotes started on or after this UK day.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = uk_day)]
    from: Option<chrono::NaiveDate>,
    /// Quotes started on or before this UK day.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = uk_day)]
    to: Option<chrono::NaiveDate>,
}

fn uk_day(text: &str) -> Result<chrono::NaiveDate, String> {
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| format!("{text:?} is not a date as YYYY-MM-DD"))
}

impl Filter {
    /// The store's filter; a period that ends before it starts is a usage error.
    fn funnel_filter(&self) -> pawpath::store::report::FunnelFilter {
        if let (Some(f), Some(t)) = (self.from, self.to)
            && f > t
        {
            usage_error(format!("--from {f} is after --to {t}"));
        }
        pawpath::store::report::FunnelFilter {
            journey: self.journey.clone(),
            brand: self.brand.clone(),
            channel: self.channel.clone(),
            from: self.from,
            to: self.to,
        }
    }
}

#[derive(clap::Subcommand, Debug)]
enum SubjectRequest {
    /// Print everything held about the subject's quotes as JSON.
    #[command(after_help = "Example:\n  pawpath subject export --email ada@example.com")]
    Export {
        #[command(flatten)]
        who: Who,
    },
    /// Purge the subject's quotes never bought, and list the bought ones kept.
    #[command(
        after_help = "Example:\n  pawpath subject erase --reference K7QD-2M9X-PT4B --dry-run"
    )]
    Erase {
        #[command(flatten)]
        who: Who,
        /// Say what would be purged; purge nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Whose data: one quote's reference, or every quote of an email address.
#[derive(clap::Args, Debug)]
#[group(required = true, multiple = false)]
struct Who {
    /// A quote's reference.
    #[arg(long, value_parser = reference)]
    reference: Option<String>,
    /// Every quote with this email address.
    #[arg(long, value_parser = email)]
    email: Option<String>,
}

fn reference(text: &str) -> Result<String, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("a reference is required".into());
    }
    Ok(trimmed.to_owned())
}

fn email(text: &str) -> Result<String, String> {
    if text.contains('@') {
        Ok(text.to_owned())
    } else {
        Err(format!("{text:?} is not an email address"))
    }
}

impl Who {
    fn subject(&self) -> pawpath::store::retention::Subject {
        match (&self.reference, &self.email) {
            (Some(r), _) => pawpath::store::retention::Subject::Reference(r.clone()),
            (None, Some(e)) => pawpath::store::retention::Subject::Email(e.clone()),
            // The group requires one of them.
            (None, None) => usage_error("--reference or --email is required".into()),
        }
    }
}

/// Exits as clap does on a usage error (its message, then code 2).
fn usage_error(message: String) -> ! {
    use clap::CommandFactory as _;
    Cli::command()
        .error(clap::error::ErrorKind::ValueValidation, message)
        .exit()
}

/// `pawpath report experiment <id> --journey J …`.
async fn report_experiment(config: &Config, id: &str, filter: &Filter) -> ExitCode {
    let filter = filter.funnel_filter();
    match pawpath::commands::report_experiment(config, id, &filter).await {
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

/// `pawpath report funnel --journey J …`.
async fn report_funnel(
    config: &Config,
    filter: &Filter,
    csv: Option<&std::path::Path>,
    svg: Option<&std::path::Path>,
) -> ExitCode {
    let filter = filter.funnel_filter();
    let rows = match pawpath::commands::report_funnel(config, &filter).await {
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
    for (flag, path, body) in [
        ("--csv", csv, pawpath::store::report::csv(&rows)),
        ("--svg", svg, pawpath::store::report::svg(&title, &rows)),
    ] {
        if let Some(path) = path {
            if let Err(e) = std::fs::write(path, body) {
                eprintln!("pawpath report funnel: {flag} {}: {e}", path.display());
                return ExitCode::from(1);
            }
            println!("\nwritten: {}", path.display());
        }
    }
    ExitCode::SUCCESS
}

/// `pawpath purge [--dry-run]`.
async fn purge(config: &Config, dry_run: bool) -> ExitCode {
    match pawpath::commands::purge(config, dry_run).await {
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

/// `pawpath terminate-policy <number>`.
async fn terminate_policy(config: &Config, policy_number: &str) -> ExitCode {
    match pawpath::commands::terminate_policy(config, policy_number).await {
        Ok(true) => {
            println!("policy {policy_number} terminated");
            ExitCode::SUCCESS
        }
        Ok(false) => {
            eprintln!("policy {policy_number}: no such policy in force");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("pawpath cannot terminate {policy_number}: {e}");
            ExitCode::from(1)
        }
    }
}

/// `pawpath subject export|erase (--reference REF | --email ADDRESS) [--dry-run]`.
async fn subject(config: &Config, request: &SubjectRequest) -> ExitCode {
    let (erase, who, dry_run) = match request {
        SubjectRequest::Export { who } => (false, who.subject(), false),
        SubjectRequest::Erase { who, dry_run } => (true, who.subject(), *dry_run),
    };
    match pawpath::commands::subject(config, erase, &who, dry_run).await {
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

/// `pawpath check`: the definitions as start-up checks them, each problem on its own line
/// naming file, JSON path and problem.
fn check(root: &std::path::Path) -> ExitCode {
    match pawpath::load_definitions(root) {
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

/// mimalloc, not glibc's malloc (measured with the load bench in one run on the
/// project's 2-core machine): glibc's arenas were contended under load (a tenth of the view's
/// CPU went to malloc, free and their locks). With mimalloc the priced view went from 5,371 to
/// 8,126 requests a second, a transition from 2,755 to 4,027 and an inbound quote from 2,203 to
/// 2,936. Built without transparent huge pages, which took the peak memory under load from 47 MB
/// to 74 MB; without them it is 51 MB.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `pawpath replay <reference> [--from N] [--count N] [--json]`.
async fn replay(config: Config, reference: &str, from: u64, count: u64, json: bool) -> ExitCode {
    let ask = pawpath::tools::replay::Ask {
        reference: reference.trim().to_uppercase(),
        from: usize::try_from(from).unwrap_or(1),
        count: usize::try_from(count).unwrap_or(pawpath::tools::replay::MAX_SHOWN),
        pages: true,
    };
    match pawpath::commands::replay(config, &ask).await {
        Ok(replayed) if json => {
            println!(
                "{}",
                serde_json::to_string_pretty(&replayed).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Ok(replayed) => {
            print!("{}", pawpath::tools::replay::print::text(&replayed));
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
    // A usage error, `--help` or `--version` ends here (clap: the message, then exit 2 or 0).
    let cli = <Cli as clap::Parser>::parse();
    // The definition tools need no configuration, database or network.
    match &cli.command {
        Some(Command::Check { root }) => return check(&root.folder()),
        Some(Command::Graph { journey, svg, root }) => {
            return definition_tools::graph(journey, *svg, &root.folder());
        }
        Some(Command::Paths {
            journey,
            brand,
            json,
            root,
        }) => return definition_tools::paths(journey, brand.as_deref(), *json, &root.folder()),
        _ => {}
    }
    let serving = cli.command.is_none();
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
        if serving {
            std::io::stdout().is_terminal()
        } else {
            std::io::stderr().is_terminal()
        }
    };
    let writer = if serving {
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
    match cli.command {
        Some(Command::Report {
            report: Report::Funnel { filter, csv, svg },
        }) => return report_funnel(&config, &filter, csv.as_deref(), svg.as_deref()).await,
        Some(Command::Report {
            report: Report::Experiment { id, filter },
        }) => return report_experiment(&config, &id, &filter).await,
        Some(Command::TerminatePolicy { policy_number }) => {
            return terminate_policy(&config, &policy_number).await;
        }
        Some(Command::Purge { dry_run }) => return purge(&config, dry_run).await,
        Some(Command::Subject { request }) => return subject(&config, &request).await,
        Some(Command::Staff { request }) => {
            return pawpath::staff_commands::staff(&config, &request).await;
        }
        Some(Command::Events { request }) => {
            let action = match request {
                EventsRequest::List {
                    failed,
                    limit,
                    json,
                } => pawpath::commands::EventsAction::List {
                    failed,
                    limit,
                    json,
                },
                EventsRequest::Retry { id } => pawpath::commands::EventsAction::Retry { id },
            };
            return pawpath::commands::events(&config, &action).await;
        }
        Some(Command::Replay {
            reference,
            from,
            count,
            json,
        }) => return replay(config, &reference, from, count, json).await,
        Some(Command::Impact {
            from,
            to,
            since,
            sample,
            fail_if,
            flows,
            json,
        }) => {
            let to = pawpath::tools::impact::Source::parse(&to);
            let flows = flows.or_else(|| {
                let root = match &to {
                    pawpath::tools::impact::Source::Folder(p) => p.clone(),
                    pawpath::tools::impact::Source::Version(_) => config.definitions_root.clone(),
                };
                Some(root.join("tests/flows")).filter(|f| f.is_dir())
            });
            let ask = pawpath::tools::impact::Ask {
                from: pawpath::tools::impact::Source::parse(&from),
                to,
                since,
                sample: usize::try_from(sample).unwrap_or(1000),
                flows,
            };
            return pawpath::commands::impact(config, &ask, &fail_if, json).await;
        }
        // Handled before the configuration was read.
        Some(Command::Check { .. } | Command::Graph { .. } | Command::Paths { .. }) => {
            return ExitCode::SUCCESS;
        }
        None => {}
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
