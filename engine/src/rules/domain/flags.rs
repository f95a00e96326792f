//! What the pages show of each pet that only the server decides: derived from the stored pet and
//! today's date (UK time) for each view, so the renderer follows a flag and never applies the rule
//! itself (the 12-week prompt and the RA008 referral were once worked out in the
//! browser too).

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::Value;

use crate::rules::domain::derive::REFER_PRE_EXISTING;

/// journey.md §4: pets under 12 weeks old whose date of birth is unconfirmed prompt the user to
/// confirm it (aggregator mode only).
pub const DOB_CONFIRMATION_DAYS: i64 = 84;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PetFlags {
    /// The page asks the owner to confirm the pet's date of birth: on a comparison site's quote, a
    /// pet under 12 weeks old (today, UK time) with no confirmed date of birth for the date held
    /// (`saved_dob` absent or for another date).
    pub dob_to_confirm: bool,
    /// Referred for its pre-existing conditions (refer_code RA008): the page asks for the details
    /// and the vet.
    pub pre_existing_referred: bool,
}

/// Each stored pet's flags, in the pets' order.
pub fn pet_flags(document: &Value, today: NaiveDate, aggregator: bool) -> Vec<PetFlags> {
    let Some(pets) = document.get("pets").and_then(Value::as_array) else {
        return Vec::new();
    };
    pets.iter()
        .map(|pet| {
            let text = |name: &str| pet.get(name).and_then(Value::as_str);
            let dob = text("pet_date_of_birth");
            let young = dob
                .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
                .is_some_and(|d| (today - d).num_days() < DOB_CONFIRMATION_DAYS);
            PetFlags {
                dob_to_confirm: aggregator && young && text("saved_dob") != dob,
                pre_existing_referred: text("refer_code") == Some(REFER_PRE_EXISTING),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    /// journey.md §4 (Review): "Pets under 12 weeks old whose date of birth is unconfirmed (no
    /// saved_dob) prompt the user to confirm it (aggregator mode only)".
    #[test]
    fn a_pet_under_twelve_weeks_on_a_comparison_sites_quote_is_asked_about_until_confirmed() {
        let today = day("2026-11-29");
        let pet = |dob: &str, saved: Option<&str>| {
            let mut p = json!({ "pet_date_of_birth": dob });
            if let Some(s) = saved {
                p["saved_dob"] = json!(s);
            }
            json!({ "pets": [p] })
        };
        // 83 days old: asked; 84 days: not.
        assert!(pet_flags(&pet("2026-09-07", None), today, true)[0].dob_to_confirm);
        assert!(!pet_flags(&pet("2026-09-06", None), today, true)[0].dob_to_confirm);
        // Confirmed for this date: not asked; confirmed for another date: asked again.
        assert!(!pet_flags(&pet("2026-10-01", Some("2026-10-01")), today, true)[0].dob_to_confirm);
        assert!(pet_flags(&pet("2026-10-01", Some("2026-09-30")), today, true)[0].dob_to_confirm);
        // Never on the direct journey.
        assert!(!pet_flags(&pet("2026-10-01", None), today, false)[0].dob_to_confirm);
    }

    #[test]
    fn a_pet_referred_ra008_is_flagged_and_no_other() {
        let doc = json!({ "pets": [{ "refer_code": "RA008" }, { "refer_code": "RA001" }, {}] });
        let flags = pet_flags(&doc, day("2026-11-29"), false);
        assert_eq!(
            flags
                .iter()
                .map(|f| f.pre_existing_referred)
                .collect::<Vec<_>>(),
            [true, false, false]
        );
    }
}
