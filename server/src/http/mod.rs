//! What the routes share of HTTP: reading a JSON body within its bounds, the answers more than
//! one route gives, and the internal pages' door. Imports only the service and below.

pub mod admin;
pub mod answers;
pub mod body;
