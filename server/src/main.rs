//! The `pawpath` binary: read the configuration, set up logging, serve.

use std::process::ExitCode;

use pawpath::config::Config;

#[tokio::main]
async fn main() -> ExitCode {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pawpath cannot start: {e}");
            return ExitCode::from(2);
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,sqlx=warn".into());
    if config.log_json {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .json()
            .init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
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
    if let Some(other) = args.first() {
        eprintln!(
            "pawpath: unknown command {other:?} (commands: terminate-policy <policy number>; none serves)"
        );
        return ExitCode::from(2);
    }
    match pawpath::run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawpath cannot start: {e}");
            ExitCode::from(1)
        }
    }
}
