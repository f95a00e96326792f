//! Email (owner-payment.md §4 Confirmation: "a confirmation email is requested"): messages are
//! rendered with minijinja from the templates under `journeys/emails/`, in the brand's words from
//! the copy catalogue, and written to the outbox in the same database transaction as the purchase
//! that owes them. A background worker delivers the outbox over SMTP (lettre), retrying with a
//! doubling delay while the mail server is unreachable, so an outage delays mail and loses none.
//!
//! Delivery is at least once: a message is marked sent only after the SMTP server accepted it.
//! Should the connection drop between the server's acceptance and that mark, the message is sent
//! again with the same Message-ID, which lets mail systems recognise the repeat.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use engine::Definitions;
use lettre::message::{Mailbox, MultiPart};
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use minijinja::value::Kwargs;
use minijinja::{Environment, Error, ErrorKind, State, UndefinedBehavior};
use serde::Serialize;
use tokio::sync::Notify;

use crate::store::{NewEmail, OutboxRow, Store};

/// The confirmation email's kind in the outbox (one per purchase).
pub const CONFIRMATION: &str = "confirmation";

/// The templates of each kind: HTML (auto-escaped) and plain text.
const TEMPLATES: &[&str] = &[
    "confirmation.html",
    "confirmation.txt",
    "quote.html",
    "quote.txt",
    "rescue.html",
    "rescue.txt",
    "retrieve-link.html",
    "retrieve-link.txt",
];

/// The outbox kind of the free rehoming cover's confirmation.
pub const RESCUE: &str = "rescue_confirmation";

/// The outbox kind of the reminder before a quote expires (once per quote).
pub const QUOTE_REMINDER: &str = "quote_reminder";

/// The outbox kind of a quote emailed when the customer asks (/api/sendquoteemail).
pub const QUOTE: &str = "quote";

/// The outbox kind of a one-time link that opens a quote (/api/quoteretrieval-link).
pub const RETRIEVE_LINK: &str = "retrieve_link";

/// How long a worker holds a claimed message before another may take it.
const LEASE: Duration = Duration::from_secs(120);

/// A rendered message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub sender_name: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// What the confirmation email says (owner-payment.md §2 Confirmation page, Bank details panel).
#[derive(Debug, Clone, Serialize)]
pub struct ConfirmationEmail {
    /// The brand's code: the email speaks in its voice.
    pub brand_code: engine::definitions::BrandId,
    pub language: String,
    pub first_name: String,
    pub quote_reference: String,
    /// DD/MM/YYYY
    pub cover_start: String,
    /// MP or AP
    pub frequency: String,
    pub pets: Vec<PetLine>,
    pub total: String,
    /// Direct Debit payers: the mandate.
    pub mandate: Option<MandateLines>,
    /// Card payers: the card and the payment taken.
    pub card: Option<CardLines>,
    /// The first collections (the advance notice), DD/MM/YYYY.
    pub collections: Vec<CollectionLine>,
    /// The working days' notice the brand gives of a change to a Direct Debit (its
    /// `direct_debit_notice_days`).
    pub notice_days: u32,
    /// A Nectar promotion's bonus (owner-payment.md §9: capped at 20,000 points).
    pub nectar: Option<NectarLines>,
}

/// The bonus Nectar points a purchase earns, written in the email's language.
#[derive(Debug, Clone, Serialize)]
pub struct NectarLines {
    pub points: String,
    pub card_last4: String,
    /// The cap, where it cut the promotion's points down.
    pub capped_at: Option<String>,
}

/// What the free rehoming cover's email says (journey.md §1 Extra flows; owner-payment.md §9:
/// 28 days, no third party liability).
#[derive(Debug, Clone, Serialize)]
pub struct RescueEmail {
    pub brand_code: engine::definitions::BrandId,
    pub language: String,
    pub first_name: String,
    pub pet_name: String,
    pub policy_number: String,
    /// DD/MM/YYYY
    pub cover_start: String,
    /// DD/MM/YYYY, the last day covered.
    pub cover_end: String,
    pub days: u32,
    pub vet_fee_limit: String,
    pub excess: String,
    pub centre: String,
    /// The signed link to continue the free cover as annual cover, where the brand offers the
    /// annual rehoming flow (valid until the free cover's last day ends).
    pub annual_link: Option<String>,
}

/// A quote by email: the reminder before it expires, or the quote the customer asked
/// to be sent. What the review page shows of it, and the way back to it.
#[derive(Debug, Clone, Serialize)]
pub struct QuoteEmail {
    pub brand_code: engine::definitions::BrandId,
    pub language: String,
    pub first_name: String,
    pub quote_reference: String,
    /// DD/MM/YYYY, UK time.
    pub valid_until: String,
    /// The reminder (true) or the quote asked for.
    pub reminder: bool,
    pub pets: Vec<QuotePetLine>,
    /// Monthly, all pets.
    pub total: String,
    /// The retrieve-quote page with the reference filled in (the email address is still asked).
    pub retrieve_url: String,
}

/// The one-time link that opens a quote, sent to the address on the quote when its reference's
/// retrievals are spent (so guessing at a reference never keeps its owner out).
#[derive(Debug, Clone, Serialize)]
pub struct RetrieveLinkEmail {
    pub brand_code: engine::definitions::BrandId,
    pub language: String,
    pub first_name: String,
    pub quote_reference: String,
    pub link: String,
    /// How long the link works.
    pub minutes: i64,
}

impl RetrieveLinkEmail {
    fn sample(brand: &str, language: &str) -> Self {
        Self {
            brand_code: brand.into(),
            language: language.to_owned(),
            first_name: "Sam".into(),
            quote_reference: "ABCD-EFGH-JKMN".into(),
            link: "http://localhost/retrieve/continue/sample".into(),
            minutes: 30,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct QuotePetLine {
    pub name: String,
    pub cover: String,
    /// Monthly.
    pub premium: String,
    pub liability: Option<&'static str>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PetLine {
    pub name: String,
    pub policy_number: String,
    pub cover: String,
    pub premium: String,
    /// What the pet's breed and answers take off third party liability (journey.md §4):
    /// `breed`, `behaviour` or `not_at_work`; none where the cover is whole or not a dog's.
    pub liability: Option<&'static str>,
    /// The policy wording and IPID, as links.
    pub documents: Vec<DocumentLink>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DocumentLink {
    pub title: String,
    pub url: String,
}

/// What a card payer's email says of the card: what a receipt shows, nothing more.
#[derive(Debug, Clone, Serialize)]
pub struct CardLines {
    /// The issuer's name (Visa, Mastercard…).
    pub issuer: String,
    pub last4: String,
    /// The first payment, taken when the quote was bought.
    pub amount: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct MandateLines {
    pub reference: String,
    pub account_name: String,
    /// Masked: only the last digits show.
    pub account_number: String,
    /// 2-2-2 with hyphens.
    pub sort_code: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct CollectionLine {
    pub date: String,
    pub amount: String,
    pub payments: i64,
}

/// The email templates, compiled once at start.
pub struct MailTemplates {
    env: Environment<'static>,
    defs: Arc<Definitions>,
}

impl std::fmt::Debug for MailTemplates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MailTemplates")
    }
}

impl MailTemplates {
    /// Reads and compiles the templates in `dir` and renders each with a sample message in every
    /// language, so that a syntax error, an unknown variable or a missing copy key stops start-up
    /// naming the file.
    pub fn load(dir: &Path, defs: Arc<Definitions>) -> Result<Self, String> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        let copy = Arc::clone(&defs);
        env.add_function(
            "t",
            move |state: &State, key: &str, kwargs: Kwargs| -> Result<String, Error> {
                let lookup = |name: &str| {
                    state
                        .lookup(name)
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .ok_or_else(|| {
                            Error::new(ErrorKind::UndefinedError, format!("{name} is not set"))
                        })
                };
                let language = lookup("language")?;
                let brand = lookup("brand_code")?;
                if copy
                    .catalogue(&language)
                    .is_none_or(|c| !c.contains_key(key))
                {
                    return Err(Error::new(
                        ErrorKind::UndefinedError,
                        format!("copy key {key:?} is missing in {language}"),
                    ));
                }
                let mut params = BTreeMap::new();
                for name in kwargs.args() {
                    let value: minijinja::Value = kwargs.get(name)?;
                    params.insert(name.to_owned(), value.to_string());
                }
                Ok(copy.voice(&brand, &language).text(key, &params))
            },
        );
        for name in TEMPLATES {
            let path = dir.join(name);
            let source = std::fs::read_to_string(&path)
                .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
            env.add_template_owned(*name, source)
                .map_err(|e| format!("{}: {}", path.display(), describe(&e)))?;
        }
        let templates = Self { env, defs };
        let voices: Vec<(String, String)> = templates
            .defs
            .raw
            .brands
            .iter()
            .flat_map(|b| {
                b.value
                    .languages
                    .iter()
                    .map(|l| (b.value.id.clone(), l.clone()))
            })
            .collect();
        for (brand, language) in &voices {
            // Both ways of paying: each template branch must render.
            let mut by_card = ConfirmationEmail::sample(brand, language);
            by_card.mandate = None;
            by_card.card = Some(CardLines {
                issuer: "Visa".into(),
                last4: "1111".into(),
                amount: "£20.00".into(),
            });
            for message in [ConfirmationEmail::sample(brand, language), by_card] {
                templates
                    .confirmation(&message)
                    .map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            templates
                .rescue(&RescueEmail::sample(brand, language))
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            templates
                .retrieve_link(&RetrieveLinkEmail::sample(brand, language))
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            for reminder in [true, false] {
                let mut quote = QuoteEmail::sample(brand, language);
                quote.reminder = reminder;
                templates
                    .quote(&quote)
                    .map_err(|e| format!("{}: {e}", dir.display()))?;
            }
        }
        Ok(templates)
    }

    /// Renders the confirmation email.
    pub fn confirmation(&self, message: &ConfirmationEmail) -> Result<Rendered, String> {
        self.render(
            message,
            &message.brand_code,
            &message.language,
            "confirmation",
            |brand| {
                (
                    "email.confirmation.subject",
                    BTreeMap::from([("brand".to_owned(), brand.to_owned())]),
                )
            },
        )
    }

    /// A message's text and HTML parts from `{name}.txt` and `{name}.html`, with the brand's
    /// name in the context, and its subject from the copy key and parameters `subject` gives.
    fn render<M: serde::Serialize>(
        &self,
        message: &M,
        brand_code: &str,
        language: &str,
        name: &str,
        subject: impl FnOnce(&str) -> (&'static str, BTreeMap<String, String>),
    ) -> Result<Rendered, String> {
        let voice = self.defs.voice(brand_code, language);
        let brand = voice.t("app.brand");
        let mut context = serde_json::to_value(message).map_err(|e| e.to_string())?;
        if let Some(fields) = context.as_object_mut() {
            fields.insert("brand".into(), brand.clone().into());
        }
        let render = |template: &str| {
            self.env
                .get_template(template)
                .and_then(|t| t.render(minijinja::value::Serde(&context)))
                .map_err(|e| format!("{template}: {}", describe(&e)))
        };
        let (key, params) = subject(&brand);
        Ok(Rendered {
            subject: voice.text(key, &params),
            sender_name: brand.clone(),
            text: render(&format!("{name}.txt"))?,
            html: render(&format!("{name}.html"))?,
        })
    }
}

impl MailTemplates {
    /// Renders the one-time link that opens a quote.
    pub fn retrieve_link(&self, message: &RetrieveLinkEmail) -> Result<Rendered, String> {
        self.render(
            message,
            &message.brand_code,
            &message.language,
            "retrieve-link",
            |brand| {
                (
                    "email.retrieve_link.subject",
                    BTreeMap::from([
                        ("brand".to_owned(), brand.to_owned()),
                        ("reference".to_owned(), message.quote_reference.clone()),
                    ]),
                )
            },
        )
    }

    /// Renders a quote's email: the reminder, or the quote asked for.
    pub fn quote(&self, message: &QuoteEmail) -> Result<Rendered, String> {
        self.render(
            message,
            &message.brand_code,
            &message.language,
            "quote",
            |brand| {
                (
                    if message.reminder {
                        "email.quote.subject_reminder"
                    } else {
                        "email.quote.subject"
                    },
                    BTreeMap::from([
                        ("brand".to_owned(), brand.to_owned()),
                        ("reference".to_owned(), message.quote_reference.clone()),
                    ]),
                )
            },
        )
    }

    /// Renders the free rehoming cover's email.
    pub fn rescue(&self, message: &RescueEmail) -> Result<Rendered, String> {
        self.render(
            message,
            &message.brand_code,
            &message.language,
            "rescue",
            |_| {
                (
                    "rehoming.email.subject",
                    BTreeMap::from([
                        ("petName".to_owned(), message.pet_name.clone()),
                        ("policyNumber".to_owned(), message.policy_number.clone()),
                    ]),
                )
            },
        )
    }
}

impl QuoteEmail {
    fn sample(brand: &str, language: &str) -> Self {
        let pet = |liability| QuotePetLine {
            name: "Biscuit".into(),
            cover: "Lifetime £4,000".into(),
            premium: "£20.00".into(),
            liability,
        };
        Self {
            brand_code: brand.into(),
            language: language.to_owned(),
            first_name: "Sam".into(),
            quote_reference: "ABCD-EFGH-JKMN".into(),
            valid_until: "01/01/2027".into(),
            reminder: true,
            pets: vec![
                pet(Some("breed")),
                pet(Some("behaviour")),
                pet(Some("not_at_work")),
                pet(None),
            ],
            total: "£80.00".into(),
            retrieve_url: "http://localhost/quote/retrieve-quote?reference=ABCD-EFGH-JKMN".into(),
        }
    }
}

impl RescueEmail {
    fn sample(brand: &str, language: &str) -> Self {
        Self {
            brand_code: brand.into(),
            language: language.to_owned(),
            first_name: "Sam".into(),
            pet_name: "Biscuit".into(),
            policy_number: "PETRS0000000".into(),
            cover_start: "01/01/2027".into(),
            cover_end: "28/01/2027".into(),
            days: 28,
            vet_fee_limit: "£1,000".into(),
            excess: "£99".into(),
            centre: "Harbourside Rescue Steps".into(),
            annual_link: Some("http://localhost/annual-rehoming/start/sample".into()),
        }
    }
}

fn describe(e: &Error) -> String {
    match e.line() {
        Some(line) => format!("line {line}: {e}"),
        None => e.to_string(),
    }
}

impl ConfirmationEmail {
    /// A message with every part filled, for checking the templates at start (and for tests).
    pub fn sample(brand: &str, language: &str) -> Self {
        Self {
            brand_code: brand.into(),
            language: language.to_owned(),
            first_name: "Sam".into(),
            quote_reference: "PP00000000".into(),
            cover_start: "01/01/2027".into(),
            frequency: "MP".into(),
            pets: vec![PetLine {
                name: "Biscuit".into(),
                policy_number: "PETPS0000000".into(),
                cover: "Lifetime £4,000".into(),
                premium: "£20.00".into(),
                liability: Some("behaviour"),
                documents: vec![DocumentLink {
                    title: "Policy wording".into(),
                    url: "http://localhost/quote/documents/sample".into(),
                }],
            }],
            total: "£20.00".into(),
            mandate: Some(MandateLines {
                reference: "PP00000000-DD".into(),
                account_name: "S Smith".into(),
                account_number: "******78".into(),
                sort_code: "00-00-00".into(),
            }),
            card: None,
            collections: vec![CollectionLine {
                date: "01/02/2027".into(),
                amount: "£40.00".into(),
                payments: 2,
            }],
            notice_days: 10,
            nectar: Some(NectarLines {
                points: "20,000".into(),
                card_last4: "8909".into(),
                capped_at: Some("20,000".into()),
            }),
        }
    }
}

/// Where mail goes.
#[derive(Clone)]
pub struct MailSettings {
    /// `None`: no SMTP server is configured; messages wait in the outbox.
    pub smtp_url: Option<crate::config::ApiKey>,
    pub from: Address,
    /// The first retry's delay; each later one doubles, up to an hour.
    pub retry: Duration,
}

/// The outbox's delivery side: the SMTP connection and the worker's wake-up call.
pub struct Mailer {
    transport: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Address,
    retry: Duration,
    wake: Notify,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer")
            .field("smtp", &self.transport.is_some())
            .field("from", &self.from.to_string())
            .finish()
    }
}

impl Mailer {
    pub fn new(settings: &MailSettings) -> Result<Self, String> {
        let transport = match &settings.smtp_url {
            None => None,
            Some(url) => Some(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(&url.0)
                    .map_err(|e| format!("PAWPATH_SMTP_URL: {e}"))?
                    .timeout(Some(Duration::from_secs(30)))
                    .build(),
            ),
        };
        Ok(Self {
            transport,
            from: settings.from.clone(),
            retry: settings.retry,
            wake: Notify::new(),
        })
    }

    /// An outbox row for a rendered message.
    pub fn outbox_entry(kind: &str, recipient: &str, rendered: Rendered) -> NewEmail {
        NewEmail {
            id: crate::store::random_id(),
            kind: kind.to_owned(),
            recipient: recipient.to_owned(),
            sender_name: rendered.sender_name,
            subject: rendered.subject,
            body_text: rendered.text,
            body_html: rendered.html,
        }
    }

    /// Asks the worker to look at the outbox now rather than at its next poll.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Starts the worker, when an SMTP server is configured. When `stop` turns true it finishes
    /// the email it is sending (bounded by the SMTP timeout) and claims no more; an email it
    /// claimed and could not finish, because the process died, is claimed again by any server
    /// once its lease lapses.
    pub fn spawn(
        self: &Arc<Self>,
        store: Store,
        stop: tokio::sync::watch::Receiver<bool>,
    ) -> Option<tokio::task::JoinHandle<()>> {
        if self.transport.is_none() {
            tracing::warn!(
                "PAWPATH_SMTP_URL is not set: emails are kept in the outbox and not sent"
            );
            return None;
        }
        let mailer = Arc::clone(self);
        Some(tokio::spawn(async move { mailer.run(store, stop).await }))
    }

    async fn run(&self, store: Store, stop: tokio::sync::watch::Receiver<bool>) {
        let poll = self.retry.min(Duration::from_secs(5));
        crate::worker::drain(
            "outbox",
            poll,
            &self.wake,
            stop,
            || store.claim_email(lease()),
            |row| self.deliver(&store, row),
        )
        .await;
    }

    async fn deliver(&self, store: &Store, row: OutboxRow) {
        let Some(transport) = &self.transport else {
            return;
        };
        let outcome = match self.message(&row) {
            Ok(message) => transport.send(message).await.map_err(|e| {
                let permanent = e.is_permanent();
                (e.to_string(), permanent)
            }),
            Err(e) => Err((e, true)),
        };
        let recorded = match outcome {
            Ok(_) => {
                crate::metrics::email_delivery("sent");
                tracing::info!(email = %row.id, attempts = row.attempts + 1, "email sent");
                store.email_sent(&row.id).await
            }
            Err((error, true)) => {
                crate::metrics::email_delivery("refused");
                tracing::error!(email = %row.id, %error, "email refused for good; it will not be retried");
                store.email_failed(&row.id, &error, None).await
            }
            Err((error, false)) => {
                crate::metrics::email_delivery("retry");
                let delay = crate::worker::backoff(self.retry, row.attempts);
                tracing::warn!(email = %row.id, attempts = row.attempts + 1, %error, retry_in_ms = delay.as_millis(), "email not sent; will retry");
                let at = chrono::Utc::now()
                    + chrono::Duration::from_std(delay).unwrap_or(chrono::Duration::hours(1));
                store.email_failed(&row.id, &error, Some(at)).await
            }
        };
        if let Err(e) = recorded {
            tracing::warn!(email = %row.id, error = %e, "outbox: cannot record the attempt; its lease will lapse and it will be tried again");
        }
    }

    fn message(&self, row: &OutboxRow) -> Result<Message, String> {
        let to: Mailbox = row
            .recipient
            .parse()
            .map_err(|e| format!("recipient: {e}"))?;
        let from = Mailbox::new(Some(row.sender_name.clone()), self.from.clone());
        Message::builder()
            .message_id(Some(format!("<{}@{}>", row.id, self.from.domain())))
            .from(from)
            .to(to)
            .subject(row.subject.clone())
            .multipart(MultiPart::alternative_plain_html(
                row.body_text.clone(),
                row.body_html.clone(),
            ))
            .map_err(|e| e.to_string())
    }
}

fn lease() -> chrono::Duration {
    chrono::Duration::from_std(LEASE).unwrap_or(chrono::Duration::minutes(2))
}
