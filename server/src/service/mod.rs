//! The journey service: what the routes call. The session's quote, the transition, the view data
//! a page is drawn from, and the rules only a server can keep (rate limits, resets, signed
//! links). It knows nothing of HTTP: a route reads the request into typed input (a [`Caller`],
//! the body's fields) and sends what comes back (a [`Reply`], a value, an [`AppError`]) through
//! the HTTP layer, which alone decides statuses and headers. It imports only the store, the
//! integrations and the foundations below it.

pub mod activation;
pub mod aggregators;
pub mod annual;
pub mod breeds;
pub mod caller;
pub mod card_payment;
pub mod card_return;
pub mod card_settle;
pub mod codes;
pub mod cover;
pub mod documents;
pub mod edits;
pub mod emails;
pub mod error;
pub mod fields;
pub mod landing;
pub mod limits;
pub mod lookups;
pub mod ops;
pub mod pace;
pub mod page;
pub mod policy_events;
pub mod portal;
pub mod purchase;
pub mod quote;
pub mod reminders;
pub mod render_errors;
pub mod reply;
pub mod rescue;
pub mod retention;
pub mod retrieve;
pub mod retrieve_link;
pub mod screening;
pub mod staff;
pub mod state;
pub mod studio_access;
pub mod test_mode;
pub mod transition;
pub mod view;

pub use caller::Caller;
pub use error::AppError;
pub use reply::Reply;
