//! Card numbers (owner-payment.md §5 Payment): the Luhn check and the issuer from the number's
//! leading digits (`server/data/card-issuers.json`). Used by the payment provider, which is the
//! only part of pawpath that ever sees a card number; nothing here keeps or logs one.

use serde::{Deserialize, Serialize};

const FILE: &str = "server/data/card-issuers.json";
const DATA: &str = include_str!("../../data/card-issuers.json");
const SCHEMA: &str = include_str!("../../data/card-issuers.schema.json");

/// The issuer codes of owner-payment.md §5: mastercard MCDEBIT, visaelectron UKE, jcb JCB, amex
/// AMEX, visa VISA, maestro MAESTRO; and, so that no card the provider takes is refused for its
/// brand, a code for each other brand Stripe names (diners, discover, unionpay,
/// cartes_bancaires, eftpos_au, girocard) and OTHER for one it does not know or names later.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Issuer {
    #[serde(rename = "MCDEBIT")]
    Mastercard,
    #[serde(rename = "UKE")]
    VisaElectron,
    #[serde(rename = "JCB")]
    Jcb,
    #[serde(rename = "AMEX")]
    Amex,
    #[serde(rename = "VISA")]
    Visa,
    #[serde(rename = "MAESTRO")]
    Maestro,
    #[serde(rename = "DINERS")]
    Diners,
    #[serde(rename = "DISCOVER")]
    Discover,
    #[serde(rename = "UNIONPAY")]
    UnionPay,
    #[serde(rename = "CB")]
    CartesBancaires,
    #[serde(rename = "EFTPOS")]
    Eftpos,
    #[serde(rename = "GIROCARD")]
    Girocard,
    #[serde(rename = "OTHER")]
    Other,
}

impl Issuer {
    pub fn code(self) -> &'static str {
        match self {
            Issuer::Mastercard => "MCDEBIT",
            Issuer::VisaElectron => "UKE",
            Issuer::Jcb => "JCB",
            Issuer::Amex => "AMEX",
            Issuer::Visa => "VISA",
            Issuer::Maestro => "MAESTRO",
            Issuer::Diners => "DINERS",
            Issuer::Discover => "DISCOVER",
            Issuer::UnionPay => "UNIONPAY",
            Issuer::CartesBancaires => "CB",
            Issuer::Eftpos => "EFTPOS",
            Issuer::Girocard => "GIROCARD",
            Issuer::Other => "OTHER",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
struct IssuerRanges {
    code: Issuer,
    ranges: Vec<(String, String)>,
}

#[derive(Deserialize)]
struct IssuerFile {
    issuers: Vec<IssuerRanges>,
}

/// The issuer table, in the order it is tried.
#[derive(Debug, Clone)]
pub struct Issuers(Vec<IssuerRanges>);

impl Issuers {
    pub fn load() -> Result<Self, String> {
        Self::parse(DATA)
    }

    fn parse(text: &str) -> Result<Self, String> {
        let file: IssuerFile = crate::data_file::load(FILE, text, SCHEMA)?;
        for (i, issuer) in file.issuers.iter().enumerate() {
            for (k, (from, to)) in issuer.ranges.iter().enumerate() {
                if from.len() != to.len() || from > to {
                    return Err(format!(
                        "{FILE} at /issuers/{i}/ranges/{k}: {from}–{to} is not a range of prefixes of one length, lowest first"
                    ));
                }
            }
        }
        Ok(Self(file.issuers))
    }

    /// The issuer of a number (digits only), by the first range its leading digits fall in.
    pub fn detect(&self, digits: &str) -> Option<Issuer> {
        self.0
            .iter()
            .find(|issuer| {
                issuer.ranges.iter().any(|(from, to)| {
                    digits
                        .get(..from.len())
                        .is_some_and(|prefix| prefix >= from.as_str() && prefix <= to.as_str())
                })
            })
            .map(|issuer| issuer.code)
    }
}

/// The Luhn check, written once in the engine (it checks Nectar card numbers too).
pub use engine::rules::domain::luhn_valid;

#[cfg(test)]
mod tests {
    use super::*;

    /// owner-payment.md §5 Payment: the Luhn check.
    #[test]
    fn luhn_accepts_valid_numbers_and_refuses_one_digit_wrong() {
        for good in [
            "4111111111111111",
            "5555555555554444",
            "4000000000000002",
            "79927398713",
        ] {
            assert!(luhn_valid(good), "{good}");
        }
        for bad in [
            "4111111111111112",
            "5555555555554440",
            "",
            "4111 1111",
            "79927398710",
        ] {
            assert!(!luhn_valid(bad), "{bad}");
        }
    }

    /// owner-payment.md §5 Payment: "Card issuer codes: mastercard MCDEBIT, visaelectron UKE,
    /// jcb JCB, amex AMEX, visa VISA, maestro MAESTRO".
    #[test]
    fn issuers_are_detected_with_the_spec_codes() {
        let issuers = Issuers::load().expect("the shipped table loads");
        let cases = [
            ("4111111111111111", "VISA"),
            ("4917300800000000", "UKE"),
            ("4026000000000002", "UKE"),
            ("5555555555554444", "MCDEBIT"),
            ("2223000048400011", "MCDEBIT"),
            ("6759649826438453", "MAESTRO"),
            ("5018000000000009", "MAESTRO"),
            ("3530111333300000", "JCB"),
            ("3782822463100050", "AMEX"),
        ];
        for (number, code) in cases {
            assert_eq!(
                issuers.detect(number).map(Issuer::code),
                Some(code),
                "{number}"
            );
        }
        assert_eq!(issuers.detect("9999999999999995"), None);
        assert_eq!(
            issuers.detect("6011111111111117"),
            None,
            "Discover is not taken"
        );
    }

    #[test]
    fn a_bad_table_is_refused_naming_the_place() {
        let text = r#"{"description": "x", "issuers": [{"name": "visa", "code": "VISA", "ranges": [["45", "4"]]}]}"#;
        let err = Issuers::parse(text).expect_err("refused");
        assert!(err.contains("/issuers/0/ranges/0"), "{err}");
        let text = r#"{"description": "x", "issuers": [{"name": "visa", "code": "VIZA", "ranges": [["4", "4"]]}]}"#;
        let err = Issuers::parse(text).expect_err("refused");
        assert!(err.contains("/issuers/0/code"), "{err}");
    }
}
