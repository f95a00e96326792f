//! Typed definitions (journeys, guards, question sets, copy) and the loader that reads them.
//!
//! Every file names its kind through `$schema`, which editors also follow. Loading checks each
//! file against that schema (the copies in `journeys/schemas/` and `questions/schemas/`, built
//! into the binary), then deserialises it with unknown fields refused, and reports every problem
//! with the file and the JSON path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::{DefinitionError, DefinitionErrors};

/// A step's id, as written in journey files.
pub type StepId = String;
/// A guard's name, as written in `journeys/guards.json`.
pub type GuardId = String;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Direct,
    Aggregator,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Direct => "direct",
            Channel::Aggregator => "aggregator",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Journey {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub id: String,
    #[serde(default)]
    pub description: Option<String>,
    pub channel: Channel,
    /// An extra flow only the brands that list it in their `flows` offer (journey.md §1 Extra
    /// flows: `rehoming`, `annual_rehoming`); none for the channels' own journeys.
    #[serde(default)]
    pub flow: Option<String>,
    pub base_path: String,
    /// The rate table's pricing scheme the journey's quotes are priced by (the annual rehoming
    /// cover's excess); the table's own where not given.
    #[serde(default)]
    pub rate_scheme: Option<String>,
    /// Quotes on this journey are only ever made from a signed policy link (the annual
    /// rehoming flow): a visitor without one is shown the `policy_link_expired` page, never an
    /// empty form.
    #[serde(default)]
    pub linked_only: bool,
    /// Pages of the journey outside its steps, at paths of its own (the annual rehoming flow's
    /// /already-purchased, /policy-link-expired and /policy-terminated).
    #[serde(default)]
    pub status_pages: Vec<StatusPage>,
    pub start: StepId,
    pub step_bar: Vec<StepBarItem>,
    pub steps: Vec<Step>,
    /// Answers that can no longer change while a guard holds (a matched existing policy stops
    /// name and address editing).
    #[serde(default)]
    pub locks: Vec<Lock>,
}

/// A page of the journey's own outside its steps, at a path under its base.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusPage {
    pub page: PageId,
    pub path: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    pub id: String,
    pub description: String,
    /// The guard over the quote document that turns the lock on.
    pub when: GuardId,
    /// JSON pointers of the locked answers, for example `/owner/customer_first_name`.
    pub fields: Vec<String>,
}

impl Journey {
    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }

    pub fn step_by_path(&self, path: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.path == path)
    }

    /// The step bar item a step belongs to.
    pub fn bar_item_of(&self, step: &str) -> Option<&StepBarItem> {
        self.step_bar
            .iter()
            .find(|item| item.steps.iter().any(|s| s == step))
    }

    /// The step bar as a brand numbers it (journeys/brands: review_step_number; journey.md §2:
    /// review is step 4, "3rd step in some variants"): where the brand puts review earlier, the
    /// items before it from that number on fold into review's item, under the label
    /// `stepbar.quote_review_pay`, and the items after it are numbered on from there.
    pub fn step_bar_for(&self, brand: Option<&Brand>) -> Vec<StepBarItem> {
        let Some(wanted) = brand.and_then(|b| b.review_step_number) else {
            return self.step_bar.clone();
        };
        let Some(at) = self
            .step_bar
            .iter()
            .position(|item| item.steps.iter().any(|s| s == "review"))
        else {
            return self.step_bar.clone();
        };
        let first = usize::try_from(wanted.saturating_sub(1))
            .unwrap_or(at)
            .min(at);
        let mut out: Vec<StepBarItem> = self.step_bar[..first].to_vec();
        out.push(StepBarItem {
            entry: None,
            number: wanted,
            label: if first < at {
                "stepbar.quote_review_pay".to_owned()
            } else {
                self.step_bar[at].label.clone()
            },
            steps: self.step_bar[first..=at]
                .iter()
                .flat_map(|item| item.steps.iter().cloned())
                .collect(),
        });
        for (n, item) in self.step_bar[at + 1..].iter().enumerate() {
            out.push(StepBarItem {
                number: wanted + 1 + u32::try_from(n).unwrap_or(0),
                ..item.clone()
            });
        }
        out
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepBarItem {
    pub number: u32,
    /// Copy key of the label.
    pub label: String,
    pub steps: Vec<StepId>,
    /// The step the item's link opens (one of `steps`); the first where not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<StepId>,
}

impl StepBarItem {
    /// The step the item's link opens.
    pub fn entry_step(&self) -> Option<&StepId> {
        self.entry.as_ref().or_else(|| self.steps.first())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// Draws the step's question set.
    Form,
    /// A page that is not built yet and says which step it is.
    Pending,
    /// The assumptions page (journey.md §2 Assumptions): each pet's answers as a summary with
    /// its tick, the questions edited in a modal.
    Assumptions,
    /// The cover select page (journey.md §2 Cover select): each pet's products by cover type,
    /// level and excess; answers the `cover` question set.
    ChoosePolicy,
    /// The review page (journey.md §2 Review): the priced quote, with its modals.
    Review,
    /// The payment page (owner-payment.md §2 Payment page): the quote summary and the Direct
    /// Debit form (a payment question set).
    Payment,
    /// The bank details panel (owner-payment.md §2 Bank details panel), before buying.
    PaymentConfirmation,
    /// The card payment check (owner-payment.md §2 /creditcard-confirmation), before buying:
    /// the card is charged when the quote is bought.
    CardConfirmation,
    /// The confirmation page (owner-payment.md §2 Confirmation page), once bought.
    Confirmation,
    /// The rehoming flow's confirmation (journey.md §2 Routes: rehoming /confirmation, step 4):
    /// the details to check, the free cover activated there (its documents scanned first), then
    /// the cover confirmed.
    RescueConfirmation,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub id: StepId,
    pub path: String,
    /// Copy key of the page title.
    pub title: String,
    pub view: View,
    #[serde(default)]
    pub questions: Option<String>,
    #[serde(default)]
    pub rules: Vec<String>,
    #[serde(default)]
    pub requires: Vec<GuardId>,
    #[serde(default)]
    pub complete_when: Option<GuardId>,
    #[serde(default)]
    pub blocking: Vec<BlockingRule>,
    #[serde(default)]
    pub exits: Vec<Exit>,
    #[serde(default)]
    pub terminal: bool,
    /// The conditional exits may hold at once and the first listed is meant to win.
    #[serde(default)]
    pub exits_ordered: bool,
    /// Question sets the step's page edits in place (its modals): answering one changes the
    /// document but does not submit the step.
    #[serde(default)]
    pub edits: Vec<Edit>,
}

/// A question set a page edits in place, with the named rules its answers must also pass.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edit {
    pub questions: String,
    #[serde(default)]
    pub rules: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockingRule {
    pub id: String,
    pub when: GuardId,
    /// Copy key of the message shown while blocked. Optional here so that the lint, not the
    /// parser, reports a missing one with the rule's path.
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub field: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exit {
    pub to: StepId,
    #[serde(default)]
    pub when: Option<GuardId>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub guards: BTreeMap<GuardId, GuardDef>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardDef {
    pub description: String,
    pub schema: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionSet {
    #[serde(rename = "$schema")]
    pub schema_ref: String,
    pub id: String,
    #[serde(default)]
    pub description: Option<String>,
    /// JSON Schema (draft-07) over the step's answers.
    pub schema: Value,
    /// rjsf uiSchema; `ui:title`, `ui:description`, `ui:help` and `ui:enumNames` hold copy keys.
    pub ui: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CopyCatalogue {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub language: String,
    pub messages: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Species {
    Dog,
    Cat,
    Rabbit,
}

impl Species {
    pub fn as_str(self) -> &'static str {
        match self {
            Species::Dog => "dog",
            Species::Cat => "cat",
            Species::Rabbit => "rabbit",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "dog" => Some(Species::Dog),
            "cat" => Some(Species::Cat),
            "rabbit" => Some(Species::Rabbit),
            _ => None,
        }
    }

    /// The letter every breed id of the species starts with.
    pub fn id_prefix(self) -> char {
        match self {
            Species::Dog => 'D',
            Species::Cat => 'C',
            Species::Rabbit => 'R',
        }
    }
}

/// One breed with the insurer's fields (journey.md §3 Breed data).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Breed {
    pub id: String,
    /// The Kennel Club's (or the register's) name: what is recorded and sent on.
    pub desc: String,
    /// The breed as owners say it where `desc` is not ("Cocker Spaniel" for "Spaniel (Cocker)"):
    /// what the search shows and the pages say; `desc` is still found by the search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spoken: Option<String>,
    pub active: bool,
    pub species: Species,
    pub category: String,
    pub exclude: bool,
    pub exclude_tpl: bool,
    pub at_risk: bool,
    pub high_risk: bool,
    pub breed_type: String,
    pub select: bool,
    pub min_age_wks: u32,
    pub max_age_mths: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
}

/// The breed list of one species: dogs in three lists, cats and rabbits in one.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreedFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub species: Species,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breeds: Option<Vec<Breed>>,
    #[serde(default, rename = "breedData", skip_serializing_if = "Option::is_none")]
    pub breed_data: Option<Vec<Breed>>,
    #[serde(
        default,
        rename = "crossbreedData",
        skip_serializing_if = "Option::is_none"
    )]
    pub crossbreed_data: Option<Vec<Breed>>,
    #[serde(
        default,
        rename = "mongrelData",
        skip_serializing_if = "Option::is_none"
    )]
    pub mongrel_data: Option<Vec<Breed>>,
}

impl BreedFile {
    /// Every breed of the file with the JSON pointer of its list.
    pub fn lists(&self) -> Vec<(&'static str, &[Breed])> {
        let mut out = Vec::new();
        for (name, list) in [
            ("/breeds", &self.breeds),
            ("/breedData", &self.breed_data),
            ("/crossbreedData", &self.crossbreed_data),
            ("/mongrelData", &self.mongrel_data),
        ] {
            if let Some(list) = list {
                out.push((name, list.as_slice()));
            }
        }
        out
    }
}

/// The free rehoming cover and the rehoming centres (journeys/rehoming-centres.json).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RehomingFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub cover: RescueCover,
    /// Brand code → its centres.
    pub centres: BTreeMap<String, Vec<RehomingCentre>>,
}

/// The free cover a rehomed pet gets (owner-payment.md §9: 28 days, no third party liability).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RescueCover {
    pub code: String,
    pub days: u32,
    pub vet_fee_limit: String,
    /// Species → excess per condition, whole pounds.
    pub excess: BTreeMap<String, String>,
    pub third_party_liability: bool,
    pub activation_days: u32,
}

/// A rehoming centre (owner-payment.md §3: contactname, address1 to address4, postcode).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RehomingCentre {
    pub id: String,
    pub contactname: String,
    pub address1: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address2: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address3: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address4: Option<String>,
    pub postcode: String,
}

/// The promo codes on offer (journeys/promotions.json).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub codes: Vec<PromoCode>,
}

/// One promo code (owner-payment.md §4 Promo code): `description` and `summary` are copy keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromoCode {
    pub code: String,
    pub description: String,
    pub summary: String,
    pub brands: Vec<String>,
    pub species: Vec<Species>,
    pub discount_percent: String,
    pub valid_from: chrono::NaiveDate,
    pub valid_to: chrono::NaiveDate,
    pub nectar: bool,
}

/// How a brand takes payment (owner-payment.md §3 payment_method).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum PaymentMethod {
    /// Direct Debit.
    #[serde(rename = "DD")]
    DirectDebit,
    /// Debit or credit card, through the payment provider.
    #[serde(rename = "CC")]
    Card,
}

impl PaymentMethod {
    pub fn code(self) -> &'static str {
        match self {
            PaymentMethod::DirectDebit => "DD",
            PaymentMethod::Card => "CC",
        }
    }
}

/// A partner brand (journeys/brands/*.json, journeys/schemas/brand.schema.json): every setting
/// the specification says varies by brand.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Brand {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub id: String,
    pub description: String,
    pub display_name: String,
    pub site_url: String,
    /// The logo's file in journeys/brands/logos/.
    pub logo: String,
    pub theme: Theme,
    /// The brand's languages, its default first.
    pub languages: Vec<String>,
    pub currency: Currency,
    pub channels: Vec<Channel>,
    /// The extra flows the brand offers (journey.md §1): journeys whose `flow` is listed here.
    #[serde(default)]
    pub flows: Vec<String>,
    pub species: Vec<Species>,
    pub payment_methods: Vec<PaymentMethod>,
    pub sales_phones: SalesPhones,
    pub sales_hours: SalesHours,
    #[serde(default)]
    pub session: Option<SessionTimes>,
    #[serde(default)]
    pub max_pet_age_months: Option<u32>,
    pub policy_number: PolicyNumberFormat,
    pub pages: BrandPages,
    /// Step id → the path it has on this brand instead of the journey's.
    #[serde(default)]
    pub step_paths: BTreeMap<String, String>,
    #[serde(default)]
    pub review_step_number: Option<u32>,
    pub rating_badge: RatingBadge,
    pub best_buy_banner: bool,
    pub tracking: Tracking,
    /// Copy overrides: language → key → text.
    #[serde(default)]
    pub copy: BTreeMap<String, BTreeMap<String, String>>,
}

impl Brand {
    pub fn takes(&self, method: PaymentMethod) -> bool {
        self.payment_methods.contains(&method)
    }

    pub fn offers(&self, species: Species) -> bool {
        self.species.contains(&species)
    }

    pub fn sells_through(&self, channel: Channel) -> bool {
        self.channels.contains(&channel)
    }

    /// Whether the brand offers a journey: its channel, and its flow where it has one.
    pub fn offers_journey(&self, journey: &Journey) -> bool {
        self.sells_through(journey.channel)
            && journey
                .flow
                .as_ref()
                .is_none_or(|flow| self.flows.contains(flow))
    }

    /// The brand's default language.
    pub fn language(&self) -> &str {
        self.languages.first().map_or("en-GB", String::as_str)
    }

    /// Whether the brand speaks `language`.
    pub fn speaks(&self, language: &str) -> bool {
        self.languages.iter().any(|l| l == language)
    }

    /// The path of a step on this brand: its own where it names one, else the journey's.
    pub fn step_path<'a>(&'a self, step: &'a Step) -> &'a str {
        self.step_paths
            .get(&step.id)
            .map_or(step.path.as_str(), String::as_str)
    }

    /// The sales number a customer is given (journey.md §1): a tracking token's number first,
    /// then the aggregator code's, then the channel's.
    pub fn sales_phone(
        &self,
        channel: Channel,
        aggregator: Option<&str>,
        tracking_token: Option<&str>,
    ) -> &str {
        if let Some(number) = tracking_token.and_then(|t| self.sales_phones.tracking_tokens.get(t))
        {
            return number;
        }
        match channel {
            Channel::Direct => &self.sales_phones.direct,
            Channel::Aggregator => aggregator
                .and_then(|a| self.sales_phones.aggregators.get(a))
                .unwrap_or(&self.sales_phones.aggregator),
        }
    }
}

/// The brand's colours and font (brand.schema.json /properties/theme).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    pub primary: String,
    pub primary_dark: String,
    pub accent: String,
    pub on_primary: String,
    pub font: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub enum Currency {
    #[serde(rename = "GBP")]
    Gbp,
    #[serde(rename = "EUR")]
    Eur,
}

impl Currency {
    pub fn code(self) -> &'static str {
        match self {
            Currency::Gbp => "GBP",
            Currency::Eur => "EUR",
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SalesPhones {
    pub direct: String,
    pub aggregator: String,
    /// By aggregator code (ctm, gcp, msm, cnf, qze, mon).
    pub aggregators: BTreeMap<String, String>,
    /// By tracking token name.
    pub tracking_tokens: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SalesHours {
    pub weekdays: Hours,
    pub saturday: Hours,
}

/// Opening hours as HH:MM, UK time.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Hours {
    pub open: String,
    pub close: String,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SessionTimes {
    pub warning_ms: u64,
    pub reset_ms: u64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyNumberFormat {
    pub prefixes: Vec<String>,
    pub length: usize,
}

/// Where the brand's static pages are (journey.md §2 Routes).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BrandPages {
    pub privacy: String,
    pub terms: String,
    pub support: String,
    pub library: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingBadge {
    #[serde(rename = "defaqto_5_star")]
    Defaqto5Star,
    #[serde(rename = "defaqto_5_star_lifetime")]
    Defaqto5StarLifetime,
    None,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tracking {
    pub container_id: String,
}

/// The pages around the journey (journeys/pages.json, journeys/schemas/pages.schema.json).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PagesFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub pages: Vec<StaticPage>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageId {
    Privacy,
    Terms,
    Support,
    Library,
    /// The annual rehoming flow's pages for a policy link that cannot be used.
    PolicyLinkExpired,
    AlreadyPurchased,
    PolicyTerminated,
}

impl PageId {
    pub fn as_str(self) -> &'static str {
        match self {
            PageId::Privacy => "privacy",
            PageId::Terms => "terms",
            PageId::Support => "support",
            PageId::Library => "library",
            PageId::PolicyLinkExpired => "policy_link_expired",
            PageId::AlreadyPurchased => "already_purchased",
            PageId::PolicyTerminated => "policy_terminated",
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StaticPage {
    pub id: PageId,
    pub title: String,
    pub description: String,
    pub index: bool,
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    pub sections: Vec<PageSection>,
    #[serde(default)]
    pub faqs: Vec<Faq>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PageSection {
    pub heading: String,
    pub paragraphs: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}

impl Brand {
    /// The path of one of the brand's static pages, if the brand has it.
    pub fn page_path(&self, page: PageId) -> Option<&str> {
        match page {
            PageId::Privacy => Some(&self.pages.privacy),
            PageId::Terms => Some(&self.pages.terms),
            PageId::Support => Some(&self.pages.support),
            PageId::Library => self.pages.library.then_some("/library"),
            // A journey's own pages, at the journey's paths (Journey::status_pages).
            PageId::PolicyLinkExpired | PageId::AlreadyPurchased | PageId::PolicyTerminated => None,
        }
    }
}

/// A definition together with the file it came from, so later checks can name it.
#[derive(Debug, Clone)]
pub struct Sourced<T> {
    pub file: String,
    pub value: T,
    /// The file as parsed JSON, kept for lints that walk it generically.
    pub raw: Value,
}

/// The whole definition set, as loaded (not yet linted or compiled).
#[derive(Debug, Clone, Default)]
pub struct RawDefinitions {
    pub journeys: Vec<Sourced<Journey>>,
    pub guards: Vec<Sourced<GuardFile>>,
    pub question_sets: Vec<Sourced<QuestionSet>>,
    pub copy: Vec<Sourced<CopyCatalogue>>,
    pub breeds: Vec<Sourced<BreedFile>>,
    pub promotions: Vec<Sourced<PromotionFile>>,
    pub rehoming: Vec<Sourced<RehomingFile>>,
    pub rates: Vec<Sourced<crate::rating::RateFile>>,
    pub documents: Vec<Sourced<crate::documents::DocumentFile>>,
    pub experiments: Vec<Sourced<crate::experiments::ExperimentFile>>,
    pub brands: Vec<Sourced<Brand>>,
    pub pages: Vec<Sourced<PagesFile>>,
    /// The brands' logos: file name (`pos.svg`) → the checked SVG text.
    pub logos: BTreeMap<String, String>,
    /// A digest of every file's name and bytes: the definition version quotes record.
    pub version: String,
}

/// Where definition files come from.
pub trait Loader {
    /// Every definition file as (path relative to the root, contents), in a stable order.
    fn files(&self) -> Result<Vec<(String, String)>, DefinitionErrors>;
}

/// Reads `journeys/*.json`, `questions/*.json`, `questions/copy/*.json` and
/// `questions/breeds/*.json` under a root folder.
#[derive(Debug, Clone)]
pub struct FsLoader {
    pub root: PathBuf,
}

impl FsLoader {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }
}

/// The folders definitions are read from, each with the kind of file it holds: JSON
/// definitions, or the brands' SVG logos.
const DEFINITION_FOLDERS: [(&str, &str); 7] = [
    ("journeys", "json"),
    ("journeys/brands", "json"),
    ("journeys/brands/logos", "svg"),
    ("journeys/products", "json"),
    ("questions", "json"),
    ("questions/copy", "json"),
    ("questions/breeds", "json"),
];

/// Where the brands' logos are; a brand's `logo` names a file here.
pub const LOGO_FOLDER: &str = "journeys/brands/logos";

impl Loader for FsLoader {
    fn files(&self) -> Result<Vec<(String, String)>, DefinitionErrors> {
        let mut out = Vec::new();
        let mut errors = Vec::new();
        for (folder, extension) in DEFINITION_FOLDERS {
            let dir = self.root.join(folder);
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) => {
                    errors.push(DefinitionError::new(
                        folder,
                        "",
                        format!("cannot read folder {}: {e}", dir.display()),
                    ));
                    continue;
                }
            };
            let mut names: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == extension))
                .collect();
            names.sort();
            for path in names {
                let rel = relative(&self.root, &path);
                match std::fs::read_to_string(&path) {
                    Ok(text) => out.push((rel, text)),
                    Err(e) => errors.push(DefinitionError::new(
                        rel,
                        "",
                        format!("cannot read file: {e}"),
                    )),
                }
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(DefinitionErrors(errors))
        }
    }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Definition files held in memory, for tests.
#[derive(Debug, Clone, Default)]
pub struct MemoryLoader {
    pub files: Vec<(String, String)>,
}

impl Loader for MemoryLoader {
    fn files(&self) -> Result<Vec<(String, String)>, DefinitionErrors> {
        Ok(self.files.clone())
    }
}

/// The kinds of definition file, told apart by the file name their `$schema` points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Journey,
    Guards,
    QuestionSet,
    Copy,
    Breeds,
    Promotions,
    Rehoming,
    Rates,
    Documents,
    Experiments,
    Brand,
    Pages,
}

const PAGES_SCHEMA: &str = include_str!("../../journeys/schemas/pages.schema.json");
const BRAND_SCHEMA: &str = include_str!("../../journeys/schemas/brand.schema.json");
const EXPERIMENTS_SCHEMA: &str = include_str!("../../journeys/schemas/experiments.schema.json");
const DOCUMENTS_SCHEMA: &str = include_str!("../../journeys/schemas/documents.schema.json");
const RATES_SCHEMA: &str = include_str!("../../journeys/schemas/rates.schema.json");

const REHOMING_SCHEMA: &str = include_str!("../../journeys/schemas/rehoming.schema.json");
const PROMOTIONS_SCHEMA: &str = include_str!("../../journeys/schemas/promotions.schema.json");
const JOURNEY_SCHEMA: &str = include_str!("../../journeys/schemas/journey.schema.json");
const GUARDS_SCHEMA: &str = include_str!("../../journeys/schemas/guards.schema.json");
const QUESTION_SET_SCHEMA: &str = include_str!("../../questions/schemas/question-set.schema.json");
const COPY_SCHEMA: &str = include_str!("../../questions/schemas/copy.schema.json");
const BREEDS_SCHEMA: &str = include_str!("../../questions/schemas/breeds.schema.json");

impl Kind {
    fn from_schema_ref(schema_ref: &str) -> Option<Self> {
        let name = schema_ref.rsplit('/').next().unwrap_or(schema_ref);
        match name {
            "journey.schema.json" => Some(Kind::Journey),
            "guards.schema.json" => Some(Kind::Guards),
            "question-set.schema.json" => Some(Kind::QuestionSet),
            "copy.schema.json" => Some(Kind::Copy),
            "breeds.schema.json" => Some(Kind::Breeds),
            "promotions.schema.json" => Some(Kind::Promotions),
            "rehoming.schema.json" => Some(Kind::Rehoming),
            "rates.schema.json" => Some(Kind::Rates),
            "documents.schema.json" => Some(Kind::Documents),
            "experiments.schema.json" => Some(Kind::Experiments),
            "brand.schema.json" => Some(Kind::Brand),
            "pages.schema.json" => Some(Kind::Pages),
            _ => None,
        }
    }

    fn meta_schema(self) -> &'static str {
        match self {
            Kind::Journey => JOURNEY_SCHEMA,
            Kind::Guards => GUARDS_SCHEMA,
            Kind::QuestionSet => QUESTION_SET_SCHEMA,
            Kind::Copy => COPY_SCHEMA,
            Kind::Breeds => BREEDS_SCHEMA,
            Kind::Promotions => PROMOTIONS_SCHEMA,
            Kind::Rehoming => REHOMING_SCHEMA,
            Kind::Rates => RATES_SCHEMA,
            Kind::Documents => DOCUMENTS_SCHEMA,
            Kind::Experiments => EXPERIMENTS_SCHEMA,
            Kind::Brand => BRAND_SCHEMA,
            Kind::Pages => PAGES_SCHEMA,
        }
    }
}

/// Reads and parses every file. Collects all problems before failing.
pub fn load(loader: &dyn Loader) -> Result<RawDefinitions, DefinitionErrors> {
    let files = loader.files()?;
    let mut defs = RawDefinitions::default();
    let mut errors = Vec::new();
    let mut digest = Sha256::new();
    let validators = MetaValidators::new();
    // Question sets that extend another (`extends` + `patch`), with their files.
    let mut variants: Vec<(String, Value)> = Vec::new();

    for (file, text) in &files {
        digest.update(file.as_bytes());
        digest.update([0]);
        digest.update(text.as_bytes());
        digest.update([0]);

        if let Some(name) = file
            .strip_prefix(LOGO_FOLDER)
            .and_then(|n| n.strip_prefix('/'))
            .filter(|n| n.ends_with(".svg"))
        {
            match check_svg(text) {
                Ok(()) => {
                    defs.logos.insert(name.to_owned(), text.clone());
                }
                Err(problem) => errors.push(DefinitionError::new(
                    file,
                    "",
                    format!("{problem}. Fix: draw the logo as plain SVG shapes and text, with nothing that runs or fetches"),
                )),
            }
            continue;
        }

        let raw: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                errors.push(DefinitionError::new(
                    file,
                    "",
                    format!("not valid JSON: {e}. Fix: correct the JSON at that line and column"),
                ));
                continue;
            }
        };
        let Some(schema_ref) = raw.get("$schema").and_then(Value::as_str) else {
            errors.push(DefinitionError::new(
                file,
                "/$schema",
                "missing: every definition names its schema (journey, guards, question-set or copy). Fix: add \"$schema\" with the relative path of its schema",
            ));
            continue;
        };
        let Some(kind) = Kind::from_schema_ref(schema_ref) else {
            errors.push(DefinitionError::new(
                file,
                "/$schema",
                format!("unknown schema {schema_ref:?}. Fix: name one of the schemas under journeys/schemas/ or questions/schemas/"),
            ));
            continue;
        };
        let schema_errors = validators.check(kind, &raw);
        if !schema_errors.is_empty() {
            errors.extend(
                schema_errors
                    .into_iter()
                    .map(|(path, problem)| {
                        DefinitionError::new(
                            file,
                            path,
                            format!("{problem}. Fix: make it match the schema the file names in $schema ({schema_ref})"),
                        )
                    }),
            );
            continue;
        }
        if kind == Kind::QuestionSet && raw.get("extends").is_some() {
            // Resolved once every base set is read.
            variants.push((file.clone(), raw));
            continue;
        }
        let result = match kind {
            Kind::Journey => parse_into(&mut defs.journeys, file, raw),
            Kind::Guards => parse_into(&mut defs.guards, file, raw),
            Kind::QuestionSet => parse_into(&mut defs.question_sets, file, raw),
            Kind::Copy => parse_into(&mut defs.copy, file, raw),
            Kind::Breeds => parse_into(&mut defs.breeds, file, raw),
            Kind::Promotions => parse_into(&mut defs.promotions, file, raw),
            Kind::Rehoming => parse_into(&mut defs.rehoming, file, raw),
            Kind::Rates => parse_into(&mut defs.rates, file, raw),
            Kind::Documents => parse_into(&mut defs.documents, file, raw),
            Kind::Experiments => parse_into(&mut defs.experiments, file, raw),
            Kind::Brand => parse_into(&mut defs.brands, file, raw),
            Kind::Pages => parse_into(&mut defs.pages, file, raw),
        };
        if let Err(e) = result {
            errors.push(e);
        }
    }
    for (file, raw) in variants {
        match resolve_variant(&defs.question_sets, &file, &raw) {
            Ok(resolved) => {
                let schema_errors = validators.check(Kind::QuestionSet, &resolved);
                if schema_errors.is_empty() {
                    if let Err(e) = parse_into(&mut defs.question_sets, &file, resolved) {
                        errors.push(e);
                    }
                } else {
                    errors.extend(schema_errors.into_iter().map(|(path, problem)| {
                        DefinitionError::new(
                            &file,
                            path,
                            format!("once patched: {problem}. Fix: correct the variant's patch so the result matches the question-set schema"),
                        )
                    }));
                }
            }
            Err(e) => errors.push(e),
        }
    }
    defs.version = digest
        .finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    if errors.is_empty() {
        Ok(defs)
    } else {
        Err(DefinitionErrors(errors))
    }
}

/// A question set that extends another: the base's `{schema, ui}` with the variant's `patch`
/// merged over it (JSON Merge Patch, RFC 7396), under the variant's own id, description and
/// `$id`. The base must be a set of its own (not itself a variant).
fn resolve_variant(
    sets: &[Sourced<QuestionSet>],
    file: &str,
    raw: &Value,
) -> Result<Value, DefinitionError> {
    let base_id = raw
        .get("extends")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let id = raw.get("id").and_then(Value::as_str).unwrap_or_default();
    let Some(base) = sets.iter().find(|s| s.value.id == base_id) else {
        let known: Vec<&str> = sets.iter().map(|s| s.value.id.as_str()).collect();
        return Err(DefinitionError::new(
            file,
            "/extends",
            format!(
                "no question set {base_id:?} to extend (a variant extends a set that has its own schema and ui; those are: {})",
                known.join(", ")
            ),
        ));
    };
    let mut merged = serde_json::json!({ "schema": base.raw["schema"], "ui": base.raw["ui"] });
    merge_patch(&mut merged, raw.get("patch").unwrap_or(&Value::Null));
    merged["schema"]["$id"] = Value::from(format!("pawpath:questions/{id}"));
    let mut resolved = serde_json::Map::new();
    for key in ["$schema", "id", "description"] {
        if let Some(v) = raw.get(key) {
            resolved.insert(key.to_owned(), v.clone());
        }
    }
    resolved.insert("schema".into(), merged["schema"].take());
    resolved.insert("ui".into(), merged["ui"].take());
    Ok(Value::Object(resolved))
}

/// JSON Merge Patch (RFC 7396): objects merge key by key, `null` removes, anything else replaces.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(target) = target {
        for (key, value) in patch {
            if value.is_null() {
                target.remove(key);
            } else {
                merge_patch(target.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

/// A logo is served to every customer as an image: it must be an SVG document and nothing that
/// could act or fetch (no scripts, event handlers, foreign objects or outside references).
fn check_svg(text: &str) -> Result<(), String> {
    let body = text.trim_start();
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or("", |(_, r)| r).trim_start(),
        None => body,
    };
    if !body.starts_with("<svg") {
        return Err("not an SVG document: it must start with <svg".into());
    }
    if !body.contains("xmlns=\"http://www.w3.org/2000/svg\"") {
        return Err("the <svg> element needs xmlns=\"http://www.w3.org/2000/svg\"".into());
    }
    if !body.contains("<title") {
        return Err("the logo needs a <title> naming the brand, for screen readers".into());
    }
    let lower = body.to_ascii_lowercase();
    for banned in [
        "<script",
        "<foreignobject",
        "javascript:",
        "href=\"http",
        "url(http",
        "@import",
    ] {
        if lower.contains(banned) {
            return Err(format!("logos may not contain {banned:?}"));
        }
    }
    let handler = lower.match_indices(" on").any(|(i, _)| {
        let rest = &lower[i + 3..];
        let name_len = rest.chars().take_while(char::is_ascii_alphabetic).count();
        name_len > 0 && rest[name_len..].trim_start().starts_with('=')
    });
    if handler {
        return Err("logos may not contain event handler attributes (on…=)".into());
    }
    Ok(())
}

/// Parses one file into its typed list, keeping where it came from.
fn parse_into<T: serde::de::DeserializeOwned>(
    list: &mut Vec<Sourced<T>>,
    file: &str,
    raw: Value,
) -> Result<(), DefinitionError> {
    let value = parse(file, &raw)?;
    list.push(Sourced {
        file: file.to_owned(),
        value,
        raw,
    });
    Ok(())
}

fn parse<T: serde::de::DeserializeOwned>(file: &str, raw: &Value) -> Result<T, DefinitionError> {
    serde_path_to_error::deserialize(raw).map_err(|e| {
        let path = json_pointer_from_serde_path(&e.path().to_string());
        DefinitionError::new(file, path, e.inner().to_string())
    })
}

/// `steps[3].exits[0].to` → `/steps/3/exits/0/to`.
fn json_pointer_from_serde_path(path: &str) -> String {
    if path == "." {
        return String::new();
    }
    let mut out = String::new();
    for part in path.split('.') {
        let mut rest = part;
        while let Some(open) = rest.find('[') {
            let (name, tail) = rest.split_at(open);
            if !name.is_empty() {
                out.push('/');
                out.push_str(name);
            }
            let close = tail.find(']').unwrap_or(tail.len());
            out.push('/');
            out.push_str(&tail[1..close]);
            rest = tail.get(close + 1..).unwrap_or("");
        }
        if !rest.is_empty() {
            out.push('/');
            out.push_str(rest);
        }
    }
    out
}

struct MetaValidators {
    compiled: Vec<(Kind, jsonschema::Validator)>,
}

impl MetaValidators {
    fn new() -> Self {
        let compiled = [
            Kind::Journey,
            Kind::Guards,
            Kind::QuestionSet,
            Kind::Copy,
            Kind::Breeds,
            Kind::Promotions,
            Kind::Rehoming,
            Kind::Rates,
            Kind::Documents,
            Kind::Experiments,
            Kind::Brand,
            Kind::Pages,
        ]
        .into_iter()
        .map(|kind| {
            // The meta-schemas are part of the source tree and covered by tests; a broken one
            // is a build defect, not bad input.
            #[expect(clippy::expect_used, reason = "built-in schemas are tested")]
            let schema: Value =
                serde_json::from_str(kind.meta_schema()).expect("built-in schema is JSON");
            #[expect(clippy::expect_used, reason = "built-in schemas are tested")]
            let validator = jsonschema::validator_for(&schema).expect("built-in schema compiles");
            (kind, validator)
        })
        .collect();
        Self { compiled }
    }

    fn check(&self, kind: Kind, raw: &Value) -> Vec<(String, String)> {
        let Some((_, validator)) = self.compiled.iter().find(|(k, _)| *k == kind) else {
            return vec![];
        };
        validator
            .iter_errors(raw)
            .map(|e| (e.instance_path().as_str().to_owned(), e.to_string()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_paths_become_json_pointers() {
        assert_eq!(
            json_pointer_from_serde_path("steps[3].exits[0].to"),
            "/steps/3/exits/0/to"
        );
        assert_eq!(json_pointer_from_serde_path("start"), "/start");
        assert_eq!(json_pointer_from_serde_path("."), "");
    }

    #[test]
    fn built_in_meta_schemas_compile() {
        let v = MetaValidators::new();
        assert_eq!(v.compiled.len(), 12);
    }
}
