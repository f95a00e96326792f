//! Sanctions screening measured both ways (server/src/sanctions): 5,000 ordinary UK customers
//! (given names and surnames from the English and Welsh lists the `fake` crate ships, one in four
//! with a middle name, random dates of birth) against a list of OFSI's size made from its German,
//! French, Italian, Portuguese, Dutch and Turkish lists (5,000 people with aliases and dates of
//! birth as OFSI gives them): how many are referred, and the time a purchase's screening takes
//! (the policyholder with their date of birth, and an account holder who is someone else by name
//! alone: one customer in ten here pays from another person's account). Every variant of
//! a listed name is proved referred by the tests (`sanctions::variants`).
//!
//! Run: `cargo bench -p pawpath-server --bench screening`.

#[path = "../tests/api/common/names_corpus.rs"]
#[allow(dead_code, unreachable_pub)]
mod names_corpus;

use std::time::Instant;

use chrono::Datelike;

use pawpath::sanctions::{Party, SanctionsList};

fn main() {
    let text = names_corpus::listed_csv(5_000);
    let rows = text.lines().count() - 2;
    let started = Instant::now();
    let list = SanctionsList::parse("corpus.csv", &text).expect("the corpus list");
    let loaded = started.elapsed();
    let customers = names_corpus::ordinary_customers(5_000);
    let mut referred = Vec::new();
    let started = Instant::now();
    for (n, c) in customers.iter().enumerate() {
        let policyholder = Party {
            given: &c.given,
            surname: &c.surname,
            date_of_birth: Some(c.date_of_birth),
        };
        let account = format!("{} {}", c.given, c.surname);
        // As a purchase screens: the account holder by name alone only when it is not the
        // policyholder's name (one in ten here pays from another person's account).
        let payer = if c.date_of_birth.ordinal() % 10 == 0 {
            format!(
                "{} {}",
                customers[customers.len() - 1 - n].given,
                customers[n].surname
            )
        } else {
            account
        };
        let payer = Party::named(&payer);
        let found = list.screen_party(&policyholder, 90).or_else(|| {
            (!list.same_name(&policyholder, &payer, 90))
                .then(|| list.screen_party(&payer, 90))
                .flatten()
        });
        if let Some(m) = found {
            let listed: Vec<&str> = text
                .lines()
                .filter(|l| l.ends_with(&format!(",{}", m.group_id)))
                .collect();
            referred.push(format!(
                "{} {} ({}), score {}: {}",
                c.given,
                c.surname,
                c.date_of_birth,
                m.score,
                listed.join(" | ")
            ));
        }
    }
    let elapsed = started.elapsed();
    println!(
        "list: {} people in {rows} rows, read and indexed in {:.0} ms",
        list.len(),
        loaded.as_secs_f64() * 1e3
    );
    println!(
        "customers: {}; referred: {} ({:.2} in 1,000)",
        customers.len(),
        referred.len(),
        referred.len() as f64 * 1000.0 / customers.len() as f64
    );
    println!(
        "time a purchase (two parties): mean {:.3} ms",
        elapsed.as_secs_f64() * 1e3 / customers.len() as f64
    );
    for r in &referred {
        println!("  referred: {r}");
    }
}
