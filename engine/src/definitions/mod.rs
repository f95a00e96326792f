//! Layer 1, definitions: what the files say. The types of every definition file, the loader that
//! reads and checks each against its own schema, the question and guard schemas compiled, the
//! value types definitions are written in (money, postcodes) and the engine's vocabulary (its
//! domain rules and message keys). Imports nothing else of the engine.

pub mod brands;
pub mod catalogues;
pub mod documents;
pub mod error;
pub mod experiments;
pub mod journeys;
pub mod load;
pub mod money;
pub mod pages;
pub mod postcode;
pub mod rates;
pub mod schema;
pub mod views;
pub mod vocabulary;

pub use brands::*;
pub use catalogues::*;
pub use journeys::*;
pub use load::*;
pub use pages::*;
