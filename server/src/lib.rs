//! pawpath's server: HTTP, storage and integrations around the pure journey engine.
//!
//! `main.rs` reads the configuration and calls [`run`]; tests call [`App::build`] and serve the
//! router on port 0. This file only declares the modules; nothing in them reaches back to it.

pub mod addresses;
pub mod app;
pub mod banks;
pub mod commands;
pub mod config;
pub mod crypto;
pub mod data_file;
pub mod events;
pub mod holidays;
pub mod http;
pub mod logs;
pub mod mail;
pub mod metrics;
pub mod payments;
pub mod policies;
pub mod reload;
pub mod routes;
pub mod sanctions;
pub mod scanner;
pub mod serve;
pub mod service;
pub mod session;
pub mod signed;
pub mod staff_commands;
pub mod startup;
pub mod store;
pub mod tools;
pub mod vets;
pub mod worker;

pub use app::{App, run};
pub use startup::{StartError, load_definitions};
