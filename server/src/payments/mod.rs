//! Card payments (issue 6; owner-payment.md §1 "Direct Debit, or card where offered", §2 Payment
//! page card form, §3 payment_method CC, §5 Payment).
//!
//! A card number never reaches pawpath's database or logs. The browser sends the card form
//! straight to the payment provider, which answers with a token; pawpath is sent only that token
//! and asks the provider what it stands for (the name, the issuer, the last four digits and the
//! expiry: what a statement or receipt shows) and, when the quote is bought, to charge it.
//! [`PaymentProvider`] is that interface; [`test_provider::TestProvider`] is a provider that runs
//! inside pawpath for development and tests, with its own browser endpoint, holding no card
//! number either.

pub mod cards;
pub mod test_provider;

use std::future::Future;
use std::pin::Pin;

use rust_decimal::Decimal;
use serde::Serialize;

pub use cards::Issuer;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a token stands for: what pawpath may keep and show of a card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardSummary {
    pub name: String,
    pub issuer: Issuer,
    pub last4: String,
    /// MM/YY.
    pub expiry: String,
}

/// A payment taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    /// The provider's reference for the payment.
    pub id: String,
    pub amount: Decimal,
    pub currency: String,
}

/// What the browser needs to send a card to the provider.
#[derive(Debug, Clone, Serialize)]
pub struct BrowserSettings {
    /// Where the card form is posted (`{card: {card_name, card_number, card_expiry, card_cvc}}`).
    pub tokenise_url: String,
    /// The provider's public key for this site, sent as `Authorization: Bearer …`.
    pub publishable_key: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    /// The token is not one the provider issued, or it has expired.
    #[error("the card token is unknown or has expired")]
    UnknownToken,
    /// The card issuer refused the payment.
    #[error("the card payment was declined")]
    Declined,
    /// The same idempotency key was used before for a different payment.
    #[error("the idempotency key was used for a different payment")]
    KeyReused,
    /// The provider could not be reached or failed.
    #[error("the payment provider is unavailable: {0}")]
    Unavailable(String),
}

/// A payment provider: the only place card details go.
pub trait PaymentProvider: Send + Sync {
    fn name(&self) -> &'static str;

    /// Where the browser sends the card form.
    fn browser(&self) -> BrowserSettings;

    /// What a token stands for.
    fn card<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<CardSummary, ProviderError>>;

    /// Takes a payment. The same `idempotency_key` always answers with the first payment made
    /// with it, so a retry never charges twice.
    fn charge<'a>(
        &'a self,
        token: &'a str,
        amount: Decimal,
        currency: &'a str,
        idempotency_key: &'a str,
    ) -> BoxFuture<'a, Result<Charge, ProviderError>>;
}
