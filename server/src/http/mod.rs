//! What the routes share of HTTP: reading a JSON body within its bounds, the answers more than
//! one route gives, the internal pages' door and the content security policy. Imports only the service and below.

pub mod admin;
pub mod answers;
pub mod body;
pub mod caller;
pub mod csrf;
pub mod error;
pub mod policy;
