//! The bank a sort code belongs to, for the bank details panel (owner-payment.md §2 Bank
//! details panel: "bank name and bank address"): `server/data/bank-branches.json`, sort code
//! ranges with a bank name and branch address, checked against its schema at start. The shipped
//! file is fictional (see its description); a sort code in no range has no bank shown.

use serde::Deserialize;

const FILE: &str = "server/data/bank-branches.json";
const DATA: &str = include_str!("../data/bank-branches.json");
const SCHEMA: &str = include_str!("../data/bank-branches.schema.json");

#[derive(Debug, Clone, Deserialize)]
struct Branch {
    from: String,
    to: String,
    bank: String,
    address: Vec<String>,
}

#[derive(Deserialize)]
struct BranchFile {
    branches: Vec<Branch>,
}

/// A bank and its branch address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankBranch {
    pub name: String,
    /// The address lines joined with ", ".
    pub address: String,
}

#[derive(Debug, Clone)]
pub struct BankDirectory {
    /// Sorted by `from`; no two overlap.
    branches: Vec<Branch>,
}

impl BankDirectory {
    pub fn load() -> Result<Self, String> {
        Self::parse(DATA)
    }

    fn parse(text: &str) -> Result<Self, String> {
        let file: BranchFile = crate::data_file::load(FILE, text, SCHEMA)?;
        let mut branches = file.branches;
        for (i, b) in branches.iter().enumerate() {
            if b.from > b.to {
                return Err(format!(
                    "{FILE} at /branches/{i}: from {} is after to {}",
                    b.from, b.to
                ));
            }
        }
        branches.sort_by(|a, b| a.from.cmp(&b.from));
        for pair in branches.windows(2) {
            if pair[1].from <= pair[0].to {
                return Err(format!(
                    "{FILE} at /branches: the ranges {}–{} and {}–{} overlap",
                    pair[0].from, pair[0].to, pair[1].from, pair[1].to
                ));
            }
        }
        Ok(Self { branches })
    }

    /// The branch of a sort code (six digits, with or without hyphens).
    pub fn branch(&self, sort_code: &str) -> Option<BankBranch> {
        let digits: String = sort_code.chars().filter(char::is_ascii_digit).collect();
        if digits.len() != 6 {
            return None;
        }
        let i = self
            .branches
            .partition_point(|b| b.from.as_str() <= digits.as_str());
        let b = self.branches.get(i.checked_sub(1)?)?;
        (digits.as_str() <= b.to.as_str()).then(|| BankBranch {
            name: b.bank.clone(),
            address: b.address.join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sort_code_finds_its_branch_and_one_in_no_range_finds_none() {
        let d = BankDirectory::load().expect("shipped file");
        let b = d.branch("08-99-99").expect("a branch");
        assert_eq!(b.name, "Meridian Mutual Bank");
        assert_eq!(
            b.address,
            "Meridian House, 4 Cotton Exchange, Manchester, M1 9ZZ"
        );
        assert_eq!(d.branch("089999"), Some(b));
        assert_eq!(
            d.branch("080000").map(|b| b.name),
            Some("Meridian Mutual Bank".into())
        );
        assert_eq!(d.branch("090000"), None, "between ranges");
        assert_eq!(d.branch("999999"), None);
        assert_eq!(d.branch("12-34"), None, "not six digits");
    }

    #[test]
    fn overlapping_or_reversed_ranges_are_refused_naming_the_file() {
        let overlap = r#"{"$schema":"x","description":"x","branches":[
            {"from":"100000","to":"109999","bank":"A Bank","address":["1 Street","Town"]},
            {"from":"105000","to":"119999","bank":"B Bank","address":["1 Street","Town"]}]}"#;
        let e = BankDirectory::parse(overlap).expect_err("overlap");
        assert!(
            e.contains("server/data/bank-branches.json") && e.contains("overlap"),
            "{e}"
        );
        let reversed = r#"{"$schema":"x","description":"x","branches":[
            {"from":"109999","to":"100000","bank":"A Bank","address":["1 Street","Town"]}]}"#;
        assert!(
            BankDirectory::parse(reversed)
                .expect_err("reversed")
                .contains("/branches/0")
        );
        let bad = r#"{"$schema":"x","description":"x","branches":[{"from":"10","to":"100000","bank":"A","address":[]}]}"#;
        assert!(
            BankDirectory::parse(bad)
                .expect_err("schema")
                .contains("/branches/0")
        );
    }
}
