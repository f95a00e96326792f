//! What the view data is made from: the quote, its journey and step, where it stands, and the
//! services a page draws on.

use crate::store::QuoteRow;
use engine::Definitions;
use engine::definitions::{Journey, Step};
use engine::journey::position::Position;
use engine::rules::context::RuleContext;

pub struct ViewInput<'a> {
    pub defs: &'a Definitions,
    pub journey: &'a Journey,
    pub quote: &'a QuoteRow,
    pub viewing: &'a Step,
    pub position: &'a Position,
    pub csrf: &'a str,
    /// How the quote's brand speaks, in the quote's language.
    pub voice: &'a engine::Voice<'a>,
    pub rules: &'a RuleContext,
    /// England and Wales bank holidays, for the payment page's collection dates.
    pub holidays: &'a engine::rules::collections::BankHolidays,
    /// Which bank a sort code belongs to, for the bank details panel.
    pub banks: &'a crate::banks::BankDirectory,
    /// Where the browser sends a card, for brands that take cards.
    pub card_provider: crate::payments::BrowserSettings,
    /// The full account number, decrypted, only for the one page that shows it (the bank
    /// details panel); everywhere else the document's masked copy is all there is.
    pub account_number: Option<String>,
    /// The purchase, once the quote is bought (the confirmation page).
    pub purchase: Option<crate::store::PurchaseRow>,
    /// The inactivity warning and reset times, in milliseconds.
    pub timeouts: (u64, u64),
    /// The answer to a modal's save (journey.md §4: its data replaces the view data of the page
    /// the modal is on), which carries every product whatever the quote's step.
    pub after_edit: bool,
}

/// What a page's view data reads of the outside services (bank holidays, the banks, where a
/// browser sends a card), taken from the state by the service for the routes that draw a page.
pub struct Lookups<'a> {
    pub holidays: &'a engine::rules::collections::BankHolidays,
    pub banks: &'a crate::banks::BankDirectory,
    pub card_provider: crate::payments::BrowserSettings,
}

impl<'a> Lookups<'a> {
    pub fn of(state: &'a crate::service::state::AppState) -> Self {
        Self {
            holidays: &state.holidays,
            banks: &state.banks,
            card_provider: state.payments.browser(),
        }
    }
}

#[derive(serde::Serialize)]
pub struct Timeouts {
    pub warning_ms: u64,
    pub reset_ms: u64,
}
