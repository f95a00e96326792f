//! UK modulus checking against Vocalink's published test cases (owner-payment.md §4 Bank
//! validation; the tables in server/data/vocalink, version 8.90).

use std::path::Path;

use engine::rules::modulus::{ModulusTables, Outcome, Shape};

fn tables() -> ModulusTables {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/data/vocalink");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("table file");
    ModulusTables::parse(&read("valacdos.txt"), &read("scsubtab.txt")).expect("tables parse")
}

#[test]
fn the_tables_load_whole() {
    assert_eq!(tables().rows(), 1160, "every line of the 8.90 table");
}

#[test]
fn vocalinks_valid_test_cases_pass() {
    let t = tables();
    for (sc, acc, what) in [
        ("089999", "66374958", "standard MOD10"),
        ("107999", "88837491", "standard MOD11"),
        ("202959", "63748472", "standard DBLAL, both checks"),
        ("871427", "46238510", "exception 10 and 11, first passes"),
        ("872427", "46238510", "exception 10 and 11, second passes"),
        ("871427", "09123496", "exception 10, ab = 09 and g = 9"),
        ("871427", "99123496", "exception 10, ab = 99 and g = 9"),
        ("820000", "73688637", "exception 3, c is 6 or 9"),
        ("827999", "73988638", "exception 3, c is 9"),
        ("827101", "28748352", "exception 3, both checks"),
        ("134020", "63849203", "exception 4"),
        ("118765", "64371389", "exception 1"),
        ("200915", "41011166", "exception 6, foreign currency"),
        ("938611", "07806039", "exception 5"),
        ("938600", "42368003", "exception 5, remainder 0"),
        ("938063", "55065200", "exception 5, substituted sort code"),
        ("772798", "99345694", "exception 7"),
        ("086090", "06774744", "exception 8"),
        ("309070", "02355688", "exception 2 and 9"),
        ("309070", "12345668", "exception 2 and 9, a not 0, g not 9"),
        ("309070", "12345677", "exception 2 and 9, a not 0, g is 9"),
        (
            "309070",
            "99345694",
            "exception 2 and 9, second check with 309634",
        ),
    ] {
        let outcome = t.check(sc, acc).expect("shape");
        assert!(
            outcome.accepted(),
            "{sc}/{acc} ({what}) should pass, got {outcome:?}"
        );
    }
}

#[test]
fn vocalinks_invalid_test_cases_fail() {
    let t = tables();
    for (sc, acc, what) in [
        ("938063", "15764273", "exception 5, first check fails"),
        ("938063", "15764264", "exception 5, second check fails"),
        ("938063", "15763217", "exception 5, remainder 1"),
        ("118765", "64371388", "exception 1"),
        ("203099", "66831036", "standard, first check fails"),
        ("203099", "58716970", "standard, second check fails"),
    ] {
        assert_eq!(
            t.check(sc, acc).expect("shape"),
            Outcome::Invalid,
            "{sc}/{acc} ({what}) should fail"
        );
    }
}

#[test]
fn sort_codes_in_no_row_cannot_be_checked_and_are_accepted() {
    // Vocalink: a sort code the table does not cover is accepted as it is.
    let t = tables();
    assert_eq!(
        t.check("999999", "12345678").expect("shape"),
        Outcome::NotCheckable
    );
}

#[test]
fn the_shape_is_checked_first() {
    let t = tables();
    assert_eq!(
        t.check("08-99-99", "66374958").expect("dashes allowed"),
        Outcome::Valid
    );
    assert_eq!(t.check("0899", "66374958"), Err(Shape::SortCode));
    assert_eq!(t.check("089999", "12345"), Err(Shape::AccountNumber));
    assert_eq!(t.check("089999", "12345678901"), Err(Shape::AccountNumber));
    assert_eq!(t.check("089999", "6637495x"), Err(Shape::AccountNumber));
}
