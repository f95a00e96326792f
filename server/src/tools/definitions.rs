//! The commands that read only the definitions (`pawpath graph`, `paths`): no
//! configuration, database or network. Each prints its answer and says how it ended.

use std::path::Path;
use std::process::ExitCode;

/// The definitions under `root`, for the tools that read only them; an error says so.
fn tool_definitions(tool: &str, root: &Path) -> Result<engine::Definitions, ExitCode> {
    engine::Definitions::load(&engine::definitions::FsLoader::new(root.to_path_buf())).map_err(
        |e| {
            eprintln!("pawpath {tool}: the definitions do not load: {e}");
            ExitCode::from(1)
        },
    )
}

/// `pawpath graph <journey> [--svg]`: the journey as a diagram on standard output.
pub fn graph(journey_id: &str, svg: bool, root: &Path) -> ExitCode {
    let defs = match tool_definitions("graph", root) {
        Ok(d) => d,
        Err(code) => return code,
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
    if svg {
        print!("{}", graph.svg());
    } else {
        print!("{}", graph.mermaid());
    }
    ExitCode::SUCCESS
}

/// `pawpath paths <journey> [--brand B] [--json] [--root DIR]`.
pub fn paths(journey: &str, brand: Option<&str>, json: bool, root: &Path) -> ExitCode {
    let defs = match tool_definitions("paths", root) {
        Ok(d) => d,
        Err(code) => return code,
    };
    let folder = root;
    let generated = crate::tools::paths::generate_for(
        &defs,
        journey,
        brand,
        &folder.join("tests/flows"),
        &folder.join("server/data/vocalink"),
    );
    match generated {
        Ok(all) if json => {
            println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Ok(all) => {
            for g in &all {
                print!("{}", crate::tools::paths::print::text(g));
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
