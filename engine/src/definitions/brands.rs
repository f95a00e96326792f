//! A partner brand's settings and its static pages.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::definitions::catalogues::Species;
use crate::definitions::journeys::{Channel, Journey, Step};
use crate::definitions::pages::{BrandsWith, PageId, PageSection};

/// The brand when none is asked for (journey.md §1: the first brand).
pub const DEFAULT_BRAND: &str = "pos";

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
    /// The advance notice, in working days, of a change to a Direct Debit (owner-payment.md §9:
    /// 10 unless the brand has agreed otherwise).
    #[serde(default = "ten_working_days")]
    pub direct_debit_notice_days: u32,
    pub best_buy_banner: bool,
    pub tracking: Tracking,
    /// The firm that sells under the brand, as UK law asks every page and email to name it.
    pub firm: Firm,
    /// Copy overrides: language → key → text.
    #[serde(default)]
    pub copy: BTreeMap<String, BTreeMap<String, String>>,
}

/// The advance notice of a change to a Direct Debit, in working days, a brand gives unless it
/// has agreed another (owner-payment.md §9: "changes notified 10 working days ahead").
pub const DIRECT_DEBIT_NOTICE_DAYS: u32 = 10;

fn ten_working_days() -> u32 {
    DIRECT_DEBIT_NOTICE_DAYS
}

/// The trading disclosures (Companies Act 2006 and the Company, Limited Liability Partnership and
/// Business (Names and Trading Disclosures) Regulations 2015; FCA GEN 4 and Annex 1: the firm
/// reference number): the firm's registered name, number and office, and its FCA status. The
/// brand's copy names them as `{firm_name}`, `{firm_number}`, `{firm_registered_in}`,
/// `{firm_office}`, `{firm_fca_reference}` and `{underwriter}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Firm {
    /// The registered name: "Pawpath Insurance Services Limited".
    pub name: String,
    /// The registered number at Companies House: eight digits, or two letters and six digits.
    pub company_number: String,
    /// Where the company is registered: `england_and_wales`, `wales`, `scotland` or
    /// `northern_ireland`, worded by the copy (`firm.registered_in.<value>`).
    pub registered_in: String,
    /// The registered office's address, on one line.
    pub registered_office: String,
    /// The firm reference number on the FCA's register: six or seven digits.
    pub fca_reference: String,
    /// The insurer that underwrites the cover.
    pub underwriter: String,
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
            .get(step.id.as_str())
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
    /// The brand's tag manager, loaded on its pages once the customer accepts analytics cookies:
    /// its script and the origins the page's content security policy allows it (for that brand
    /// only). None: no cookie banner, and the events stay in the page's data layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_manager: Option<TagManager>,
}

/// A tag manager a brand names (journeys/brands: tracking.tag_manager).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TagManager {
    /// What the cookie banner and the privacy page call it (`{tag_manager_name}` in copy).
    pub name: String,
    /// How long the customer's cookie choice is remembered before the banner asks again
    /// (`{consent_days}` in copy; at most 13 months, as the ICO's guidance expects consent to be
    /// refreshed).
    pub ask_again_after_days: u16,
    /// The script's https address, loaded only after the customer accepts analytics cookies.
    pub script: String,
    /// The https origins the tag manager loads from and sends to (script-src, connect-src,
    /// img-src); the script's own origin among them.
    pub origins: Vec<String>,
}

/// Where a brand sold through comparison sites keeps the promotion's terms.
pub const PROMOTION_TERMS_PATH: &str = "/price-comparison-promotion-terms";

impl Brand {
    /// Whether the brand's static page shows a section (journeys/pages.json `for_brands`: the
    /// cookie policy differs for a brand with a tag manager).
    pub fn shows_section(&self, section: &PageSection) -> bool {
        match section.for_brands {
            None => true,
            Some(BrandsWith::WithTagManager) => self.tracking.tag_manager.is_some(),
            Some(BrandsWith::WithoutTagManager) => self.tracking.tag_manager.is_none(),
        }
    }

    /// The path of one of the brand's static pages, if the brand has it.
    pub fn page_path(&self, page: PageId) -> Option<&str> {
        match page {
            PageId::Privacy => Some(&self.pages.privacy),
            PageId::Terms => Some(&self.pages.terms),
            PageId::Support => Some(&self.pages.support),
            PageId::Library => self.pages.library.then_some("/library"),
            // Every brand sold through comparison sites has the promotion's terms.
            PageId::PromotionTerms => self
                .channels
                .contains(&crate::definitions::journeys::Channel::Aggregator)
                .then_some(PROMOTION_TERMS_PATH),
            // A journey's own pages, at the journey's paths (Journey::status_pages).
            PageId::PolicyLinkExpired | PageId::AlreadyPurchased | PageId::PolicyTerminated => None,
        }
    }
}
