//! Layer 2, checks: what must hold across the definitions before anything runs. The lint, the
//! checked [`compiled::Definitions`] every later layer is given (built only through the lint:
//! definitions validated at construction), and the analyses and graphs drawn from them. Imports
//! only the definitions layer.

pub mod analysis;
pub mod compiled;
pub mod graph;
pub mod lint;
