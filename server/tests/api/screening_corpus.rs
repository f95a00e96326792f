//! Sanctions screening measured both ways on corpora made from a package's name lists
//! (`common::names_corpus`): 5,000 ordinary UK customers against a list of OFSI's size are
//! rarely referred (the bench `screening` prints the rate and the time per purchase).

use pawpath::sanctions::{Party, SanctionsList};

use crate::common::names_corpus::{listed_csv, ordinary_customers};

#[test]
fn ordinary_uk_names_are_referred_at_most_once_in_a_thousand() {
    let list = SanctionsList::parse("corpus.csv", &listed_csv(4_000)).expect("the corpus list");
    assert_eq!(list.len(), 4_000);
    let customers = ordinary_customers(5_000);
    let referred: Vec<String> = customers
        .iter()
        .filter_map(|c| {
            let party = Party {
                given: &c.given,
                surname: &c.surname,
                date_of_birth: Some(c.date_of_birth),
            };
            list.screen_party(&party, 90)
                .map(|m| format!("{} {} {}: {m:?}", c.given, c.surname, c.date_of_birth))
        })
        .collect();
    assert!(
        referred.len() <= 5,
        "{} of 5,000 referred:\n{}",
        referred.len(),
        referred.join("\n")
    );
}
