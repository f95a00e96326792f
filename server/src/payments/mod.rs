//! Card payments (owner-payment.md §1 "Direct Debit, or card where offered", §2 Payment
//! page card form, §3 payment_method CC, §5 Payment).
//!
//! A card number never reaches pawpath's database or logs. The browser sends the card form
//! straight to the payment provider, which answers with a token; pawpath is sent only that token
//! and asks the provider what it stands for (the name, the issuer, the last four digits and the
//! expiry: what a statement or receipt shows) and, when the quote is bought, to charge it.
//! [`PaymentProvider`] is that interface; [`test_provider::TestProvider`] is a provider that runs
//! inside pawpath for development and tests, with its own browser endpoint, holding no card
//! number either; [`stripe::Stripe`] is Stripe's PaymentIntents, with 3-D Secure.

pub mod cards;
pub mod stripe;
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
    /// Where a monthly payer's card is kept for the later payments; none for a single payment.
    pub kept: Option<KeptCard>,
}

/// A card kept with the provider for payments taken later without the customer (a monthly
/// payer's): the provider's references for the customer it is kept under and the card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptCard {
    pub customer: String,
    pub payment_method: String,
}

/// What a charge came to: the provider's payment, and where it stands (taken; waiting on the
/// customer's bank; or still processing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charged {
    pub payment: String,
    pub state: PaymentState,
}

/// A payment begun earlier, as the provider now has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentState {
    Paid(Charge),
    /// Still waiting on the customer's bank: the challenge not yet done. No `url` when the
    /// provider asks for an action pawpath cannot send the customer to.
    Authenticating {
        url: Option<String>,
    },
    /// Accepted, its outcome not known yet (the provider says which by webhook): waited for,
    /// neither paid nor failed.
    Processing,
    /// Declined, the challenge failed, or cancelled: nothing was taken.
    Failed,
}

/// A card payment to take.
#[derive(Debug, Clone, Copy)]
pub struct ChargeRequest<'a> {
    pub token: &'a str,
    pub amount: Decimal,
    pub currency: &'a str,
    /// The same key always answers with the first payment made with it, so a retry never
    /// charges twice.
    pub idempotency_key: &'a str,
    /// Where the browser comes back to after a 3-D Secure challenge.
    pub return_url: &'a str,
    /// The quote, kept with the payment so its webhook finds the purchase.
    pub quote_id: &'a str,
    /// The quote's attempt the payment is for, kept with it (with the quote) so that it is found
    /// whatever became of the answer to the request that made it.
    pub attempt: i64,
    /// Monthly payers' later payments are taken without them: the card is kept for that, under
    /// the provider's customer made for the attempt.
    pub recurring: bool,
    /// The customer's email address, for the provider's customer the payment is made under.
    pub email: &'a str,
    /// The provider's customer made for the attempt ([`PaymentProvider::prepare`]).
    pub customer: Option<&'a str>,
}

/// Where to look for the payments an attempt made, when no answer named them.
#[derive(Debug, Clone, Copy)]
pub struct AttemptLookup<'a> {
    pub quote_id: &'a str,
    pub attempt: i64,
    pub idempotency_key: &'a str,
    pub customer: Option<&'a str>,
}

/// What a provider's webhook says, once its signature is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderEvent {
    /// A payment for a quote was taken, or failed (its challenge failed, or it was declined).
    Payment {
        quote_id: String,
        /// The quote's attempt it was made for, as pawpath put it in the payment.
        attempt: Option<i64>,
        payment: String,
        paid: bool,
    },
    /// Anything else: acknowledged, nothing to do.
    Other(String),
}

/// Why a webhook was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookRefused {
    #[error("the signature does not match")]
    Signature,
    #[error("the body is not an event: {0}")]
    Body(String),
    #[error("this provider sends no webhooks")]
    NotTaken,
}

/// What the browser needs to send a card to the provider.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BrowserSettings {
    /// pawpath's card form posted to the provider's endpoint
    /// (`{card: {card_name, card_number, card_expiry, card_cvc}}`), with the provider's public key
    /// sent as `Authorization: Bearer …`.
    Form {
        tokenise_url: String,
        publishable_key: String,
    },
    /// Stripe: the card's number, expiry and security code in Stripe's own fields (Stripe.js,
    /// loaded from `script_url`); the rest of the card form (the name, the billing address) is
    /// pawpath's.
    Stripe {
        script_url: String,
        publishable_key: String,
    },
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
    /// The provider keeps a failure under this idempotency key and answers it to every request
    /// with the key (Stripe saves a 5xx and replays it for 24 hours): the attempt can only be
    /// settled by finding its payments, and a new one needs a new key.
    #[error("the payment provider keeps a failure under this key: {0}")]
    KeySpent(String),
}

/// A payment provider: the only place card details go.
pub trait PaymentProvider: Send + Sync {
    fn name(&self) -> &'static str;

    /// What the browser needs to send a card to the provider.
    fn browser(&self) -> BrowserSettings;

    /// What a token stands for.
    fn card<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<CardSummary, ProviderError>>;

    /// Takes a payment, or begins one the customer's bank must authenticate.
    fn charge<'a>(
        &'a self,
        request: ChargeRequest<'a>,
    ) -> BoxFuture<'a, Result<Charged, ProviderError>>;

    /// The provider's customer an attempt's payment is made under, made for it (the same one
    /// however often it is asked for with the attempt's key); none where the provider needs none.
    fn prepare<'a>(
        &'a self,
        request: ChargeRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<String>, ProviderError>>;

    /// The payments an attempt made, as they now stand (when the answer that would have named
    /// them was lost).
    fn attempt_payments<'a>(
        &'a self,
        lookup: AttemptLookup<'a>,
    ) -> BoxFuture<'a, Result<Vec<(String, PaymentState)>, ProviderError>>;

    /// Gives a payment taken back in full; `key` makes asking twice give it back once.
    fn refund<'a>(
        &'a self,
        payment: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, Result<(), ProviderError>>;

    /// A payment begun earlier, as it now stands.
    fn payment<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<PaymentState, ProviderError>>;

    /// Gives up a payment the customer did not finish authenticating. A payment already taken
    /// is not cancelled: its state is answered instead.
    fn cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<PaymentState, ProviderError>>;

    /// Checks a webhook's signature and reads it; `header` looks up the request's headers by
    /// name.
    fn webhook(
        &self,
        header: &(dyn Fn(&str) -> Option<String> + Sync),
        body: &[u8],
    ) -> Result<ProviderEvent, WebhookRefused>;
}
