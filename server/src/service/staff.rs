//! What the staff tools (`pawpath replay`, `pawpath impact`, the reports) read beneath the
//! service: the store, and the reference data the rules run with. Only the tools and the
//! commands that start them come here; a route calls the service's own functions (the
//! architecture test refuses a route that names this module).

use std::sync::Arc;

use crate::service::state::AppState;
use crate::store::Store;

/// The store, for a staff tool's reads.
pub fn store(state: &AppState) -> &Store {
    &state.store
}

/// Vocalink's modulus tables.
pub fn bank(state: &AppState) -> &Arc<engine::rules::modulus::ModulusTables> {
    &state.bank
}

/// England and Wales bank holidays.
pub fn holidays(state: &AppState) -> &Arc<engine::rules::collections::BankHolidays> {
    &state.holidays
}

/// Which bank a sort code belongs to.
pub fn banks(state: &AppState) -> &Arc<crate::banks::BankDirectory> {
    &state.banks
}

/// Where cards go.
pub fn payments(state: &AppState) -> &Arc<dyn crate::payments::PaymentProvider> {
    &state.payments
}
