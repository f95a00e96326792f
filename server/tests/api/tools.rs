//! The product team's commands: `pawpath check` lints the definitions as start-up does
//! and says by its exit code whether they pass; `pawpath graph` draws a journey. Both run the
//! real binary, with no database.

use crate::common;

use std::path::Path;
use std::process::Command;

fn pawpath(args: &[&str], definitions: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args(args)
        .env("PAWPATH_DEFINITIONS", definitions)
        .env_remove("DATABASE_URL")
        .output()
        .expect("run pawpath");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_passes_the_repository_and_fails_a_broken_copy_naming_file_and_path() {
    let root = common::repo_root();
    let (code, out, err) = pawpath(&["check"], &root);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("pass") && out.contains("4 journeys"), "{out}");

    // A copy whose direct journey exits to a step that does not exist.
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_definitions(dir.path());
    let path = dir.path().join("journeys/direct.json");
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(
        &path,
        text.replacen("\"to\": \"choose_policy\"", "\"to\": \"choose_polcy\"", 1),
    )
    .expect("write");
    let (code, _, err) = pawpath(&["check", "--root", &dir.path().to_string_lossy()], &root);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("journeys/direct.json")
            && err.contains("/exits/0/to")
            && err.contains("choose_polcy")
            && err.contains("Fix:"),
        "{err}"
    );

    // Mended, but with a guard no document can satisfy: the lint passes it, the deeper check
    // does not, naming file, path and a fix.
    std::fs::write(&path, text).expect("write");
    let guards = dir.path().join("journeys/guards.json");
    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&guards).expect("read")).expect("json");
    file["guards"]["paying_by_card"]["schema"] = serde_json::json!({ "allOf": [
        file["guards"]["paying_by_card"]["schema"].clone(),
        { "required": ["payment"], "properties": { "payment": { "required": ["payment_method"], "properties": { "payment_method": { "const": "DD" } } } } }
    ] });
    std::fs::write(&guards, serde_json::to_string_pretty(&file).expect("json")).expect("write");
    let (code, _, err) = pawpath(&["check", "--root", &dir.path().to_string_lossy()], &root);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("journeys/guards.json at /guards/paying_by_card/schema: no document can satisfy guard \"paying_by_card\"")
            && err.contains("Fix:"),
        "{err}"
    );
}

#[test]
fn graph_draws_each_journey_and_the_readme_shows_the_direct_one_as_drawn() {
    let root = common::repo_root();
    let (code, mermaid, err) = pawpath(&["graph", "direct"], &root);
    assert_eq!(code, Some(0), "{err}");
    assert!(mermaid.contains("flowchart TD"), "{mermaid}");
    assert!(
        mermaid.contains("pet_details -- \"when needs_crossbreed_confirmation\" --> crossbreed")
    );
    assert!(mermaid.contains("payment -- \"when paying_by_card\" --> card_confirmation"));
    assert!(
        mermaid.contains("refuses pets[].idd = #quot;no#quot;"),
        "the assumptions' blocking answers"
    );
    assert!(
        mermaid.contains("confirmation([\""),
        "the terminal step is drawn rounded"
    );

    // journeys/README.md shows exactly what the command draws.
    let readme =
        std::fs::read_to_string(root.join("journeys/README.md")).expect("journeys/README.md");
    let start = readme
        .find("<!-- pawpath graph direct -->\n```mermaid\n")
        .expect("the guide's diagram block")
        + "<!-- pawpath graph direct -->\n```mermaid\n".len();
    let end = readme[start..]
        .find("```\n<!-- end pawpath graph direct -->")
        .expect("its end")
        + start;
    assert_eq!(
        &readme[start..end],
        mermaid,
        "journeys/README.md's diagram is stale: run `pawpath graph direct` and paste its output"
    );

    for journey in ["direct", "aggregator", "rehoming", "annual_rehoming"] {
        let (code, svg, err) = pawpath(&["graph", journey, "--svg"], &root);
        assert_eq!(code, Some(0), "{journey}: {err}");
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{journey}"
        );
        assert!(svg.trim_end().ends_with("</svg>"), "{journey}");
        assert!(!svg.contains("<script"), "{journey}");
        assert_eq!(
            svg.matches("<g>").count(),
            svg.matches("</g>").count(),
            "{journey}: balanced groups"
        );
    }
    // Blocking rules are drawn on the rehoming eligibility step.
    let (_, rehoming, _) = pawpath(&["graph", "rehoming"], &root);
    assert!(
        rehoming.contains("blocks (not_uk_resident) when rehoming_not_uk_resident"),
        "{rehoming}"
    );

    let (code, _, err) = pawpath(&["graph", "nosuch"], &root);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("no journey \"nosuch\"") && err.contains("direct"),
        "{err}"
    );
}

/// The guides (one for each reader) name only files that exist: every path written in
/// backquotes is found from the repository's root, the guide's own folder, or the source folder
/// the guide is about (`service/view/` in the server's guide is `server/src/service/view/`).
/// What a build or a run makes (`renderer/dist/…`, `target/…`) is left out: a fresh clone has
/// none of it.
#[test]
fn every_file_a_guide_names_exists() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guides = [
        "README.md",
        "server/README.md",
        "server/deploy/README.md",
        "server/benches/README.md",
        "journeys/README.md",
        "questions/README.md",
        "tests/README.md",
        "engine/README.md",
        "renderer/README.md",
    ];
    let bases = [
        "",
        "server/src",
        "engine/src",
        "engine",
        "renderer",
        "renderer/src",
        "server/tests",
        "server/tests/api",
        "tests",
        "tests/e2e",
        "server/data/vocalink",
    ];
    let extensions = [
        ".rs", ".ts", ".tsx", ".json", ".md", ".mjs", ".sql", ".toml", ".yaml", ".html", ".sh",
        ".txt", ".css",
    ];
    let mut missing = Vec::new();
    let mut named = 0;
    for guide in guides {
        let text = std::fs::read_to_string(root.join(guide)).expect(guide);
        let folder = std::path::Path::new(guide)
            .parent()
            .unwrap_or(std::path::Path::new(""));
        for (i, quoted) in text.split('`').enumerate() {
            // The odd pieces are inside backquotes.
            if i % 2 == 0 {
                continue;
            }
            let looks_like_a_path = !quoted.is_empty()
                && quoted
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c))
                && !quoted.starts_with(['/', '.'])
                && (quoted.contains('/') || extensions.iter().any(|e| quoted.ends_with(e)));
            if !looks_like_a_path {
                continue;
            }
            // What a build or a run makes (absent from a fresh clone) is named as it will be.
            let made = [
                "renderer/dist",
                "renderer/src/generated",
                "target/",
                "tests/test-results",
                "data/",
            ];
            if made.iter().any(|m| quoted.starts_with(m)) {
                continue;
            }
            named += 1;
            let found = bases
                .iter()
                .map(|b| root.join(b).join(quoted))
                .chain(std::iter::once(root.join(folder).join(quoted)))
                .any(|p| p.exists());
            if !found {
                missing.push(format!("{guide}: `{quoted}`"));
            }
        }
    }
    assert!(named > 100, "only {named} paths read: the guides moved?");
    assert!(
        missing.is_empty(),
        "paths named in the guides that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The command names under "Commands:" in a `--help` answer (clap's own `help` left out).
fn commands_in(help: &str) -> Vec<String> {
    help.split("Commands:\n")
        .nth(1)
        .map(|rest| {
            rest.lines()
                .take_while(|l| !l.trim().is_empty())
                .filter_map(|l| l.split_whitespace().next())
                .filter(|c| *c != "help")
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Every command and subcommand answers `--help`
/// with its options and an example; a wrong argument is the usual usage error, exit 2; the
/// README's command line names every command the binary has.
#[test]
fn every_command_answers_help_and_the_readme_names_them_all() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (code, top, err) = pawpath(&["--help"], &root);
    assert_eq!(code, Some(0), "{err}");
    let commands = commands_in(&top);
    assert!(commands.len() >= 8, "{top}");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let section = readme
        .split("## The command line")
        .nth(1)
        .expect("the README's command line");
    for command in &commands {
        assert!(
            section.contains(&format!("`{command}")),
            "the README's command line does not name `{command}`"
        );
        let (code, help, err) = pawpath(&[command, "--help"], &root);
        assert_eq!(code, Some(0), "{command} --help: {err}");
        assert!(
            help.contains(&format!("Usage: pawpath {command}")),
            "{help}"
        );
        let subcommands = commands_in(&help);
        if subcommands.is_empty() {
            assert!(
                help.contains("Example:"),
                "{command} --help has no example: {help}"
            );
        }
        for sub in &subcommands {
            let (code, help, err) = pawpath(&[command, sub, "--help"], &root);
            assert_eq!(code, Some(0), "{command} {sub} --help: {err}");
            assert!(help.contains("Example:"), "{command} {sub} --help: {help}");
        }
        let (code, _, err) = pawpath(&[command, "--no-such-option"], &root);
        assert_eq!(code, Some(2), "{command}: {err}");
        assert!(
            err.contains("unexpected argument '--no-such-option'"),
            "{err}"
        );
    }
    let (code, _, err) = pawpath(&["frobnicate"], &root);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unrecognized subcommand 'frobnicate'"),
        "{err}"
    );
}

/// The longest a source file may be: a file past it does more than one job, and is a
/// folder of files named for theirs.
const MAX_SOURCE_LINES: usize = 700;

/// Every source file of the server, the engine, the renderer and the browser tests (their tests
/// and benches included) is at most [`MAX_SOURCE_LINES`] long; what a build makes is not read.
#[test]
fn no_source_file_is_longer_than_a_file_of_one_job() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut stack: Vec<_> = [
        "server/src",
        "server/tests",
        "server/benches",
        "engine/src",
        "engine/tests",
        "renderer/src",
        "renderer/scripts",
        "tests/e2e",
    ]
    .iter()
    .map(|d| root.join(d))
    .collect();
    let mut long = Vec::new();
    let mut read = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("source folder") {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if path.is_dir() {
                if !["generated", "node_modules", "fixtures", "snapshots"].contains(&name) {
                    stack.push(path);
                }
                continue;
            }
            if ![".rs", ".ts", ".tsx", ".mjs"]
                .iter()
                .any(|e| name.ends_with(e))
            {
                continue;
            }
            read += 1;
            let lines = std::fs::read_to_string(&path)
                .expect("source")
                .lines()
                .count();
            if lines > MAX_SOURCE_LINES {
                long.push(format!(
                    "{}: {lines} lines",
                    path.strip_prefix(&root).unwrap_or(&path).display()
                ));
            }
        }
    }
    assert!(read > 300, "only {read} source files found");
    assert!(
        long.is_empty(),
        "longer than {MAX_SOURCE_LINES} lines (split each into files of one job each):\n{}",
        long.join("\n")
    );
}

/// The repository describes the product, not the work on it: no text names a work item by its
/// number ("issue" and a number); a comment cites the spec's section (journey.md §4) or says
/// the behaviour, and a test's name says what it proves.
#[test]
fn no_text_names_a_work_item_by_number() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let skip = [
        ".git",
        "node_modules",
        "target",
        "dist",
        "generated",
        "test-results",
    ];
    let mut found = Vec::new();
    let mut read = 0;
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("folder") {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            if path.is_dir() {
                if !skip.contains(&name.as_str()) {
                    stack.push(path);
                }
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            read += 1;
            // Line by line, and each line with the next (comment markers taken off), so a
            // number wrapped onto the next line is found too.
            let lines: Vec<&str> = text.lines().collect();
            for (n, line) in lines.iter().enumerate() {
                let next = lines.get(n + 1).map_or("", |l| {
                    l.trim_start()
                        .trim_start_matches(['/', '!', '*', '#', '-', '{'])
                        .trim_start()
                });
                let joined = format!("{line} {next}");
                if names_a_work_item(line)
                    || (names_a_work_item(&joined) && !names_a_work_item(next))
                {
                    found.push(format!(
                        "{}:{}: {}",
                        path.strip_prefix(&root).unwrap_or(&path).display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(read > 500, "only {read} files read");
    assert!(
        found.is_empty(),
        "text that names a work item by number (cite the spec's section or say the behaviour):\n{}",
        found.join("\n")
    );
}

/// Whether `text` names a work item by number: "issue" (a word of its own) and a number after a
/// space, an underscore or "s ".
fn names_a_work_item(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.match_indices("issue").any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = &lower[at + "issue".len()..];
        before.is_none_or(|c| !c.is_ascii_alphanumeric())
            && [" ", "_", "s "].iter().any(|sep| {
                after
                    .strip_prefix(sep)
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
            })
    })
}
