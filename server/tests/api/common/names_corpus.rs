//! Names for measuring sanctions screening both ways, made from the name lists the `fake` crate
//! ships (its English and Welsh lists for ordinary customers; its German, French, Italian,
//! Portuguese, Dutch and Turkish lists for a list of OFSI's size), in a fixed order, so a run
//! is the same every time.

use chrono::NaiveDate;
use fake::locales::{CY_GB, DE_DE, Data, EN, FR_FR, IT_IT, NL_NL, PT_BR, TR_TR};

/// A fixed sequence of numbers (a linear congruential generator: the same every run).
pub struct Sequence(u64);

impl Sequence {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    fn birth(&mut self) -> NaiveDate {
        let year = 1930 + self.below(75) as i32;
        let day = 1 + self.below(365) as u32;
        NaiveDate::from_yo_opt(year, day).unwrap_or_default()
    }
}

/// An ordinary customer: given names, surname and date of birth.
pub struct Customer {
    pub given: String,
    pub surname: String,
    pub date_of_birth: NaiveDate,
}

/// `count` ordinary UK customers: a given name (a middle name for one in four) and a surname
/// from the English and Welsh lists.
pub fn ordinary_customers(count: usize) -> Vec<Customer> {
    let firsts: Vec<&str> = EN::NAME_FIRST_NAME
        .iter()
        .chain(CY_GB::NAME_FIRST_NAME)
        .copied()
        .collect();
    let lasts: Vec<&str> = EN::NAME_LAST_NAME
        .iter()
        .chain(CY_GB::NAME_LAST_NAME)
        .copied()
        .collect();
    let mut seq = Sequence::new(7);
    (0..count)
        .map(|i| {
            let mut given = seq.pick(&firsts).to_owned();
            if i % 4 == 0 {
                given = format!("{given} {}", seq.pick(&firsts));
            }
            Customer {
                given,
                surname: seq.pick(&lasts).to_owned(),
                date_of_birth: seq.birth(),
            }
        })
        .collect()
}

/// A list in OFSI's `ConList.csv` form naming `people` individuals from the other lists, each
/// with a primary name (a middle name for one in three) and up to two aliases (another spelling
/// of the surname, or another given name), a full date of birth for seven in ten, a year alone
/// for two in ten and none for the rest.
pub fn listed_csv(people: usize) -> String {
    let firsts: Vec<&str> = [
        DE_DE::NAME_FIRST_NAME,
        FR_FR::NAME_FIRST_NAME,
        IT_IT::NAME_FIRST_NAME,
        PT_BR::NAME_FIRST_NAME,
        NL_NL::NAME_FIRST_NAME,
        TR_TR::NAME_FIRST_NAME,
    ]
    .concat();
    let lasts: Vec<&str> = [
        DE_DE::NAME_LAST_NAME,
        FR_FR::NAME_LAST_NAME,
        IT_IT::NAME_LAST_NAME,
        PT_BR::NAME_LAST_NAME,
        NL_NL::NAME_LAST_NAME,
        TR_TR::NAME_LAST_NAME,
    ]
    .concat();
    let mut seq = Sequence::new(11);
    let mut out = String::from(
        "Last Updated,01/11/2026\nName 6,Name 1,Name 2,Name 3,Name 4,Name 5,Title,DOB,Group Type,Group ID\n",
    );
    for id in 0..people {
        let first = seq.pick(&firsts);
        let middle = if id % 3 == 0 { seq.pick(&firsts) } else { "" };
        let last = seq.pick(&lasts).to_uppercase();
        let dob = match seq.below(10) {
            0..=6 => seq.birth().format("%d/%m/%Y").to_string(),
            7 | 8 => format!("00/00/{}", seq.birth().format("%Y")),
            _ => String::new(),
        };
        let group = 100_000 + id;
        let field = |s: &str| s.replace([',', '"'], " ");
        out.push_str(&format!(
            "{},{},{},,,,,{dob},Individual,{group}\n",
            field(&last),
            field(first),
            field(middle)
        ));
        for alias in 0..seq.below(3) {
            let (given, surname) = if alias == 0 {
                // Another spelling of the surname: one letter doubled.
                let mut chars: Vec<char> = last.chars().collect();
                let at = seq.below(chars.len());
                let c = chars[at];
                chars.insert(at, c);
                (first.to_owned(), chars.into_iter().collect::<String>())
            } else {
                (seq.pick(&firsts).to_owned(), last.clone())
            };
            out.push_str(&format!(
                "{},{},,,,,,{dob},Individual,{group}\n",
                field(&surname),
                field(&given)
            ));
        }
    }
    out
}
