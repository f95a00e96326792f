//! Every class of spelling variant screening must see through, against the bundled fictional
//! list (`server/data/sanctions/ConList.csv`): Ostap Ferrin QUANDRELL born 12/03/1971 (alias
//! KWANDRELL), Mirela VELLASKO born in 1980, Cedric Aldous HARROWGATE-PLUME (no date of birth).
#![expect(clippy::unwrap_used, reason = "tests")]

use chrono::NaiveDate;

use super::{Party, SanctionsList};

fn bundled() -> SanctionsList {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sanctions/ConList.csv");
    SanctionsList::load(&path).unwrap()
}

fn date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

/// Each variant, the list entry it must be referred to, and why it is a variant.
const VARIANTS: &[(&str, &str, &str, &str, &str)] = &[
    ("Ostap", "Quandrell", "1971-03-12", "90001", "as listed"),
    ("OSTAP", "quandrell", "1971-03-12", "90001", "case"),
    ("Quandrell", "Ostap", "1971-03-12", "90001", "order"),
    (
        "Ostap",
        "Quandrel",
        "1971-03-12",
        "90001",
        "a letter dropped from the surname",
    ),
    (
        "Ostap",
        "Quandrall",
        "1971-03-12",
        "90001",
        "a letter changed in the surname",
    ),
    (
        "Ostap",
        "Qaundrell",
        "1971-03-12",
        "90001",
        "two letters swapped in the surname",
    ),
    (
        "Ostpa",
        "Quandrell",
        "1971-03-12",
        "90001",
        "a slip in the given name",
    ),
    (
        "Osttap",
        "Quandrell",
        "1971-03-12",
        "90001",
        "a letter added to the given name",
    ),
    (
        "Ostap John",
        "Quandrell",
        "1971-03-12",
        "90001",
        "an extra middle name",
    ),
    (
        "Ostap Ferrin",
        "Quandrell",
        "1971-03-12",
        "90001",
        "the listed middle name",
    ),
    (
        "Ostap",
        "Quan Drell",
        "1971-03-12",
        "90001",
        "a surname split by a space",
    ),
    (
        "Ostap",
        "Quan-Drell",
        "1971-03-12",
        "90001",
        "a surname split by a hyphen",
    ),
    (
        "Ostap",
        "Quandrell Smith",
        "1971-03-12",
        "90001",
        "a second surname added",
    ),
    (
        "Ostap",
        "Smith-Quandrell",
        "1971-03-12",
        "90001",
        "a second surname before it",
    ),
    (
        "Ostap",
        "Quand'rell",
        "1971-03-12",
        "90001",
        "an apostrophe inside a name",
    ),
    (
        "Ostap",
        "Quаndrell",
        "1971-03-12",
        "90001",
        "one Cyrillic look-alike letter",
    ),
    (
        "Оѕтар",
        "Quandrell",
        "1971-03-12",
        "90001",
        "every letter a Cyrillic look-alike",
    ),
    (
        "Остап",
        "Квандрелл",
        "1971-03-12",
        "90001",
        "written in Cyrillic",
    ),
    (
        "Os\u{200B}tap",
        "Quan\u{2060}drell",
        "1971-03-12",
        "90001",
        "invisible characters",
    ),
    (
        "Ostap",
        "Quandrell",
        "1971-03-13",
        "90001",
        "a date of birth a day out",
    ),
    (
        "Ostap",
        "Quandrell",
        "1971-03-11",
        "90001",
        "a date of birth a day early",
    ),
    (
        "Ostap",
        "Quandrell",
        "1917-03-12",
        "90001",
        "two digits of the year swapped",
    ),
    (
        "Ostap",
        "Quandrell",
        "1971-12-03",
        "90001",
        "day and month swapped",
    ),
    (
        "Ostap",
        "Quandrell",
        "1985-03-12",
        "90001",
        "only the year different",
    ),
    (
        "Ostap",
        "Kwandrell",
        "1971-03-12",
        "90001",
        "the listed alias",
    ),
    (
        "Ostap",
        "Kwandrel",
        "1971-03-12",
        "90001",
        "a slip in the alias",
    ),
    (
        "Mirela",
        "Vellasko",
        "1980-07-01",
        "90002",
        "a listed year of birth",
    ),
    (
        "Mirela",
        "Velasko",
        "1980-07-01",
        "90002",
        "a letter dropped",
    ),
    (
        "Mirela",
        "Vellasco",
        "1981-07-01",
        "90002",
        "a letter changed, the year one digit out",
    ),
    (
        "Mirela Anna",
        "Vel Lasko",
        "1980-07-01",
        "90002",
        "a middle name and a split surname",
    ),
    ("Mírela", "Véllasko", "1980-07-01", "90002", "accents"),
    (
        "Cedric",
        "Harrowgate-Plume",
        "1990-01-01",
        "90003",
        "no listed date of birth",
    ),
    (
        "Cedric",
        "Harrowgate Plume",
        "1990-01-01",
        "90003",
        "a compound surname split",
    ),
    (
        "Cedric",
        "Harrowgateplume",
        "1990-01-01",
        "90003",
        "a compound surname joined",
    ),
    (
        "Cedric",
        "Plume",
        "1990-01-01",
        "90003",
        "half a compound surname",
    ),
    (
        "Ced",
        "Harrowgate-Plume",
        "1990-01-01",
        "90003",
        "a short form of the given name",
    ),
    ("C", "Harrowgate-Plume", "1990-01-01", "90003", "an initial"),
    ("C A", "Harrowgate-Plume", "1990-01-01", "90003", "initials"),
    (
        "Cedric Aldous",
        "Harrowgate-Plume",
        "1990-01-01",
        "90003",
        "every name",
    ),
    (
        "Cedrik",
        "Harowgate-Plume",
        "1990-01-01",
        "90003",
        "a slip in each name",
    ),
    (
        "Aldous",
        "Harrowgate-Plume",
        "1990-01-01",
        "90003",
        "the middle name as the first",
    ),
];

/// Names that must buy: alike in part, but not a listed person.
const CONTROLS: &[(&str, &str, &str, &str)] = &[
    ("Ostap", "Smith", "1971-03-12", "the given name alone"),
    ("Peter", "Quandrell", "1971-03-12", "the surname alone"),
    (
        "Ostap",
        "Quandrell",
        "1988-09-30",
        "a date of birth far from the listed one",
    ),
    (
        "Mirela",
        "Vellasko",
        "1995-07-01",
        "born years after the listed year",
    ),
    ("Cedric", "Harrison", "1990-01-01", "a different surname"),
    ("Mary", "Smith", "1980-01-01", "an ordinary name"),
    (
        "Jane",
        "Plumer",
        "1990-01-01",
        "half a compound surname, alike, with another given name",
    ),
];

#[test]
fn every_variant_of_a_listed_name_is_referred() {
    let list = bundled();
    let mut missed = Vec::new();
    for (given, surname, dob, entry, why) in VARIANTS {
        let party = Party {
            given,
            surname,
            date_of_birth: date(dob),
        };
        match list.screen_party(&party, 90) {
            Some(m) if m.group_id == *entry => {}
            other => missed.push(format!("{given} {surname} ({why}): {other:?}")),
        }
    }
    assert!(missed.is_empty(), "not referred:\n{}", missed.join("\n"));
}

#[test]
fn names_that_are_not_listed_buy() {
    let list = bundled();
    for (given, surname, dob, why) in CONTROLS {
        let party = Party {
            given,
            surname,
            date_of_birth: date(dob),
        };
        assert_eq!(
            list.screen_party(&party, 90),
            None,
            "{given} {surname}: {why}"
        );
    }
}

#[test]
fn a_party_known_by_one_full_name_is_screened_without_a_date_of_birth() {
    let list = bundled();
    for name in [
        "Ostap Quandrell",
        "O Quandrell",
        "Mr Ostap F Quandrel",
        "Cedric Harrowgate-Plume",
    ] {
        assert!(
            list.screen_party(&Party::named(name), 90).is_some(),
            "{name}"
        );
    }
    for name in ["J Smith", "Quandrell", "Ostap"] {
        assert_eq!(list.screen_party(&Party::named(name), 90), None, "{name}");
    }
}

#[test]
fn a_higher_threshold_asks_for_nearer_names() {
    let list = bundled();
    let party = Party {
        given: "Ostap",
        surname: "Quandrel",
        date_of_birth: date("1971-03-12"),
    };
    assert!(list.screen_party(&party, 95).is_some());
    assert!(list.screen_party(&party, 100).is_none());
}
