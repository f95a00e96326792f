//! The journey service: what the routes call. The session's quote, the transition, the view data
//! a page is drawn from, and the rules only a server can keep (rate limits, resets, signed
//! links). It reads a request's headers (the session cookie, the client's address) and, where a
//! call answers with view data, hands the route the answer ready to send (`view::Answer`,
//! `AppError`, both `IntoResponse`); the rest it returns as values. It imports only the store,
//! the integrations and the foundations below it.

pub mod activation;
pub mod aggregators;
pub mod annual;
pub mod breeds;
pub mod emails;
pub mod error;
pub mod fields;
pub mod landing;
pub mod limits;
pub mod lookups;
pub mod ops;
pub mod pace;
pub mod paths;
pub mod purchase;
pub mod quote;
pub mod reminders;
pub mod replay;
pub mod report;
pub mod rescue;
pub mod retention;
pub mod retrieve;
pub mod state;
pub mod test_mode;
pub mod transition;
pub mod view;
