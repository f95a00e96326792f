//! The server's integration tests, as one binary (one link of the whole server, not one a file).
//! Each module is one area; `common` is the harness every module shares.

// A test reads as the story of one behaviour, start to end; the 150-line bound (clippy.toml) is
// for the product's code.
#![allow(clippy::too_many_lines)]

mod addresses_api;
mod aggregator_api;
mod annual_api;
mod architecture;
mod assumptions_api;
mod bounds_api;
mod brands_api;
mod breeds_api;
mod closed_steps_api;
mod codes_api;
mod common;
mod consent_api;
mod cover_api;
mod csrf_api;
mod delivery_api;
mod deploy;
mod email_api;
mod events_api;
mod every_call;
mod experiment_report;
mod flows;
mod impact_api;
mod journey_calls;
mod language_api;
mod lean_api;
mod openapi;
mod openapi_bounds;
mod operations_api;
mod pace_api;
mod paths_api;
mod payment_api;
mod pet_details_api;
mod purchase_api;
mod rehoming_api;
mod reload;
mod reminders_api;
mod replay_api;
mod report;
mod retention_api;
mod retrieve_api;
mod rolling_restart;
mod screening_api;
mod screening_corpus;
mod session_api;
mod several_pets_api;
mod slow_senders_api;
mod startup;
mod stripe_api;
mod stripe_lost_answers_api;
mod studio_api;
mod takeover_api;
mod tools;
mod versions;
mod vets_api;
mod your_details_api;
