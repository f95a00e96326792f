//! `pawpath staff add|list|disable`: the studio's accounts, made and ended by an operator. A
//! password is read from standard input (never from the command line, where the shell's history
//! and the process list would keep it) and kept only as its argon2id hash.

use std::io::{BufRead, Read};
use std::process::ExitCode;

use crate::config::Config;
use crate::service::studio_access::{self, Role};
use crate::store::Store;

/// What `pawpath staff` is asked.
#[derive(clap::Subcommand, Debug)]
pub enum StaffRequest {
    /// Add a member of staff with a role; their password is the first line of standard input
    /// (12 to 200 characters).
    #[command(
        after_help = "Example:\n  printf '%s\\n' \"$PASSWORD\" | pawpath staff add --email ada@example.com --name 'Ada Lovelace' --role editor\n\nRoles: viewer (reads), editor (changes drafts), publisher (approves and publishes drafts others edited)."
    )]
    Add {
        /// Their email address: the name they sign in with.
        #[arg(long)]
        email: String,
        /// Their name, as the studio's record of changes shows it.
        #[arg(long)]
        name: String,
        /// viewer, editor or publisher.
        #[arg(long, value_parser = ["viewer", "editor", "publisher"])]
        role: String,
    },
    /// Every member of staff: email, name, role, and whether the account is disabled.
    #[command(after_help = "Example:\n  pawpath staff list")]
    List,
    /// Disable an account: its sessions end at once and it signs in to nothing again; what it
    /// did stays attributed to it.
    #[command(after_help = "Example:\n  pawpath staff disable --email ada@example.com")]
    Disable {
        /// The account's email address.
        #[arg(long)]
        email: String,
    },
}

/// Runs `pawpath staff …` against the configured database.
pub async fn staff(config: &Config, request: &StaffRequest) -> ExitCode {
    let store = match Store::connect(&config.database_url).await {
        Ok(store) => store,
        Err(e) => {
            eprintln!("pawpath staff: the database: {e}");
            return ExitCode::from(1);
        }
    };
    if let Err(e) = store.migrate().await {
        eprintln!("pawpath staff: the database: {e}");
        return ExitCode::from(1);
    }
    let done = run(&store, request).await;
    store.close().await;
    match done {
        Ok(said) => {
            println!("{said}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawpath staff: {e}");
            ExitCode::from(1)
        }
    }
}

async fn run(store: &Store, request: &StaffRequest) -> Result<String, String> {
    match request {
        StaffRequest::Add { email, name, role } => {
            let role = Role::parse(role).ok_or("role: viewer, editor or publisher")?;
            let mut password = String::new();
            std::io::stdin()
                .lock()
                .take(4 * 1024)
                .read_line(&mut password)
                .map_err(|e| format!("password: standard input: {e}"))?;
            let password = password.trim_end_matches(['\r', '\n']);
            if password.is_empty() {
                return Err("password: give it as the first line of standard input".into());
            }
            let member = studio_access::add(store, email, name, role, password).await?;
            Ok(format!(
                "added {} ({}) as {}",
                member.email,
                member.name,
                member.role.as_str()
            ))
        }
        StaffRequest::List => {
            let members = store.staff().await.map_err(|e| e.to_string())?;
            if members.is_empty() {
                return Ok("no staff yet: add one with pawpath staff add".into());
            }
            Ok(members
                .iter()
                .map(|m| {
                    let state = m
                        .disabled_at
                        .as_deref()
                        .map_or_else(|| "active".to_owned(), |at| format!("disabled {at}"));
                    format!("{}\t{}\t{}\t{state}", m.email, m.name, m.role.as_str())
                })
                .collect::<Vec<_>>()
                .join("\n"))
        }
        StaffRequest::Disable { email } => {
            let email = studio_access::account_email(email)?;
            if store
                .disable_staff(&email)
                .await
                .map_err(|e| e.to_string())?
            {
                Ok(format!("disabled {email}: its sessions are ended"))
            } else {
                Err(format!("email: no account {email}"))
            }
        }
    }
}
