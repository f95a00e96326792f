//! Sanctions screening: a UK insurer may not sell cover to a person on the UK financial
//! sanctions list. The list is OFSI's consolidated list in its published CSV form (`ConList.csv`:
//! a "Last Updated" line, a header line, then one row per name, the rows of one listed person
//! sharing a `Group ID`), read at start from `PAWPATH_SANCTIONS_LIST`, so a new list is a file
//! swapped and a restart, never a code change. Every party to a purchase (the policyholder with
//! their date of birth, the Direct Debit account holder, the cardholder, the owner taking free
//! rehoming cover) is screened as screening tools do it (`names`): names normalised and matched
//! as sets of tokens, scored for the whole name against `PAWPATH_SANCTIONS_THRESHOLD`; a listed
//! date of birth, where the list gives one, must agree or be near (a day out, two digits
//! swapped, day and month swapped, or only the year different).

mod names;

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use chrono::{Datelike, NaiveDate};

pub use names::ShortForms;
use names::Token;

/// The short forms of given names screening knows (`server/data/sanctions/short-forms.csv`).
const SHORT_FORMS: &str = include_str!("../../data/sanctions/short-forms.csv");
/// The largest list file read (OFSI's is a few megabytes).
const MAX_BYTES: usize = 64 * 1024 * 1024;
/// The most rows read.
const MAX_ROWS: usize = 500_000;
/// The most people one name is scored against (the index finds the few that share a word; a
/// word every listed name shares would otherwise make one screening cost the whole list).
const MAX_CANDIDATES: usize = 2_000;

/// A date of birth as the list gives it: `dd/mm/yyyy`, with `00` for a part not known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ListedDate {
    year: Option<i32>,
    month: Option<u32>,
    day: Option<u32>,
}

impl ListedDate {
    fn parse(text: &str) -> Option<Self> {
        let mut parts = text.trim().split('/');
        let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
        let known = |s: &str| s.parse::<u32>().ok().filter(|n| *n != 0);
        let date = Self {
            day: known(d),
            month: known(m),
            year: known(y).and_then(|y| i32::try_from(y).ok()),
        };
        date.year.map(|_| date)
    }

    fn agrees(&self, dob: NaiveDate) -> bool {
        self.year.is_none_or(|y| y == dob.year())
            && self.month.is_none_or(|m| m == dob.month())
            && self.day.is_none_or(|d| d == dob.day())
    }

    /// Agrees, or disagrees only as a slip would: a day out, day and month swapped, only the
    /// year different (day and month agreeing), or the digits one slip apart (one digit wrong
    /// or two neighbours swapped). A name that matches is not let through for such a date.
    fn near(&self, dob: NaiveDate) -> bool {
        if self.agrees(dob) {
            return true;
        }
        let Some(year) = self.year else {
            return false;
        };
        if let (Some(m), Some(d)) = (self.month, self.day) {
            if let Some(listed) = NaiveDate::from_ymd_opt(year, m, d)
                && (listed - dob).num_days().abs() <= 1
            {
                return true;
            }
            if m == dob.day() && d == dob.month() && year == dob.year() {
                return true;
            }
            if m == dob.month() && d == dob.day() {
                return true;
            }
        }
        let digits = |d: Option<u32>, m: Option<u32>, y: i32| {
            format!(
                "{}{}{y:04}",
                d.map_or(String::new(), |d| format!("{d:02}")),
                m.map_or(String::new(), |m| format!("{m:02}"))
            )
        };
        let listed = digits(self.day, self.month, year);
        let given = digits(
            self.day.map(|_| dob.day()),
            self.month.map(|_| dob.month()),
            dob.year(),
        );
        one_slip_apart(listed.as_bytes(), given.as_bytes())
    }
}

/// Two digit strings of one length that differ in one place, or by two neighbours swapped.
fn one_slip_apart(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    match differ.as_slice() {
        [_] => true,
        [i, j] => *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i],
        _ => false,
    }
}

/// One listed person: every name the list gives them (as tokens), every date of birth.
#[derive(Debug, Clone)]
struct Listed {
    group_id: String,
    names: Vec<Vec<Token>>,
    births: Vec<ListedDate>,
}

/// A party to a purchase as screened: their name (given names and surname, or one full name
/// whose last word is taken for the surname) and, where known, their date of birth.
#[derive(Debug, Clone, Copy)]
pub struct Party<'a> {
    pub given: &'a str,
    pub surname: &'a str,
    pub date_of_birth: Option<NaiveDate>,
}

impl<'a> Party<'a> {
    /// A party known by one full name ("J Smith" on a bank account or a card).
    pub fn named(full_name: &'a str) -> Self {
        let trimmed = full_name.trim();
        let (given, surname) = trimmed.rsplit_once(' ').unwrap_or(("", trimmed));
        Self {
            given,
            surname,
            date_of_birth: None,
        }
    }
}

/// A possible match: the list entry and how close the names were, in per cent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PossibleMatch {
    pub group_id: String,
    pub score: u32,
}

/// The consolidated list, as read.
#[derive(Debug, Clone, Default)]
pub struct SanctionsList {
    people: Vec<Listed>,
    /// Each key of each listed token (`names::keys`), hashed, to the people whose names have it.
    index: HashMap<u64, Vec<u32>>,
    short_forms: ShortForms,
    /// The list's own "Last Updated" date, as it gives it.
    pub updated: String,
}

fn key_hash(key: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

impl SanctionsList {
    /// Reads `path`; a problem names the file, the line and what is wrong.
    pub fn load(path: &std::path::Path) -> Result<Self, String> {
        let file = path.display().to_string();
        let size = std::fs::metadata(path)
            .map_err(|e| format!("{file}: cannot read: {e}"))?
            .len();
        if size > MAX_BYTES as u64 {
            return Err(format!(
                "{file}: {size} bytes, more than the {MAX_BYTES} a sanctions list may have"
            ));
        }
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{file}: cannot read: {e}"))?;
        Self::parse(&file, &text)
    }

    /// The list from the text of `ConList.csv`.
    pub fn parse(file: &str, text: &str) -> Result<Self, String> {
        if text.len() > MAX_BYTES {
            return Err(format!("{file}: more than {MAX_BYTES} bytes"));
        }
        let rows = csv_rows(text.trim_start_matches('\u{feff}'))
            .map_err(|(line, problem)| format!("{file} line {line}: {problem}"))?;
        let mut rows = rows.into_iter();
        let updated = match rows.next() {
            Some((_, first)) if first.first().is_some_and(|c| c.trim() == "Last Updated") => {
                first.get(1).cloned().unwrap_or_default()
            }
            _ => {
                return Err(format!(
                    "{file} line 1: not OFSI's consolidated list: it starts with \"Last Updated,<date>\""
                ));
            }
        };
        let Some((_, header)) = rows.next() else {
            return Err(format!("{file} line 2: the header line is missing"));
        };
        let column = |name: &str| {
            header
                .iter()
                .position(|h| h.trim() == name)
                .ok_or_else(|| format!("{file} line 2: no column {name:?} in the header"))
        };
        let surname = column("Name 6")?;
        let given = (1..=5)
            .map(|n| column(&format!("Name {n}")))
            .collect::<Result<Vec<_>, _>>()?;
        let (dob, group_type, group_id) =
            (column("DOB")?, column("Group Type")?, column("Group ID")?);
        let mut by_group: std::collections::BTreeMap<String, Listed> = Default::default();
        for (count, (line, row)) in rows.enumerate() {
            if count >= MAX_ROWS {
                return Err(format!("{file}: more than {MAX_ROWS} rows"));
            }
            if row.iter().all(|c| c.trim().is_empty()) {
                continue;
            }
            if row.len() < header.len() {
                return Err(format!(
                    "{file} line {line}: {} columns where the header has {}",
                    row.len(),
                    header.len()
                ));
            }
            // Entities (companies, ships) are not people who buy pet insurance.
            if row[group_type].trim() != "Individual" {
                continue;
            }
            let id = row[group_id].trim();
            if id.is_empty() {
                return Err(format!("{file} line {line}: the Group ID is empty"));
            }
            let mut words: Vec<Token> = given
                .iter()
                .flat_map(|&i| names::tokens(&row[i], false))
                .collect();
            words.extend(names::tokens(&row[surname], true));
            if words.is_empty() {
                return Err(format!("{file} line {line}: a person with no name"));
            }
            let entry = by_group.entry(id.to_owned()).or_insert_with(|| Listed {
                group_id: id.to_owned(),
                names: Vec::new(),
                births: Vec::new(),
            });
            if !entry.names.contains(&words) {
                entry.names.push(words);
            }
            if let Some(date) = ListedDate::parse(&row[dob])
                && !entry.births.contains(&date)
            {
                entry.births.push(date);
            }
        }
        let people: Vec<Listed> = by_group.into_values().collect();
        let mut index: HashMap<u64, Vec<u32>> = HashMap::new();
        for (n, person) in people.iter().enumerate() {
            let n = u32::try_from(n).unwrap_or(u32::MAX);
            for name in &person.names {
                let joined = names::joined_variants(name);
                for token in name.iter().chain(joined.iter().flatten()) {
                    names::keys(token, |key| {
                        let ids = index.entry(key_hash(key)).or_default();
                        if ids.last() != Some(&n) {
                            ids.push(n);
                        }
                    });
                }
            }
        }
        let short_forms = ShortForms::parse(SHORT_FORMS)?;
        Ok(Self {
            people,
            index,
            short_forms,
            updated,
        })
    }

    /// How many people the list names.
    pub fn len(&self) -> usize {
        self.people.len()
    }

    pub fn is_empty(&self) -> bool {
        self.people.is_empty()
    }

    /// The closest listed person whose name scores at least `threshold` per cent against the
    /// customer's and whose listed date of birth (where the list gives one and the customer's is
    /// known) agrees with theirs or is near it.
    pub fn screen(
        &self,
        first_name: &str,
        last_name: &str,
        date_of_birth: Option<NaiveDate>,
        threshold: u32,
    ) -> Option<PossibleMatch> {
        self.screen_party(
            &Party {
                given: first_name,
                surname: last_name,
                date_of_birth,
            },
            threshold,
        )
    }

    /// Whether two parties' names are one person's (they match as a listed name would): the
    /// account holder or cardholder who is the policyholder is screened with the policyholder's
    /// date of birth, not by name alone.
    pub fn same_name(&self, a: &Party<'_>, b: &Party<'_>, threshold: u32) -> bool {
        let mut first = names::tokens(a.given, false);
        first.extend(names::tokens(a.surname, true));
        let mut second = names::tokens(b.given, false);
        second.extend(names::tokens(b.surname, true));
        let first = names::with_short_forms(first, &self.short_forms);
        names::name_score(&first, &second).is_some_and(|score| score >= threshold)
    }

    /// [`Self::screen`] for any party.
    pub fn screen_party(&self, party: &Party<'_>, threshold: u32) -> Option<PossibleMatch> {
        let mut customer = names::tokens(party.given, false);
        customer.extend(names::tokens(party.surname, true));
        if customer.is_empty() {
            return None;
        }
        let customer = names::with_short_forms(customer, &self.short_forms);
        // The people sharing most keys with the customer's name first.
        let mut hits: HashMap<u32, u32> = HashMap::new();
        let joined = names::joined_variants(&customer);
        for token in customer.iter().chain(joined.iter().flatten()) {
            names::keys(token, |key| {
                for id in self.index.get(&key_hash(key)).into_iter().flatten() {
                    *hits.entry(*id).or_default() += 1;
                }
            });
        }
        let mut candidates: Vec<(u32, u32)> = hits.into_iter().collect();
        candidates.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        candidates.truncate(MAX_CANDIDATES);
        candidates
            .into_iter()
            .filter_map(|(n, _)| self.people.get(n as usize))
            .filter(|p| {
                p.births.is_empty()
                    || party
                        .date_of_birth
                        .is_none_or(|dob| p.births.iter().any(|b| b.near(dob)))
            })
            .filter_map(|p| {
                let score = p
                    .names
                    .iter()
                    .filter_map(|listed| names::name_score(&customer, listed))
                    .max()?;
                (score >= threshold).then(|| PossibleMatch {
                    group_id: p.group_id.clone(),
                    score,
                })
            })
            .max_by_key(|m| m.score)
    }
}

/// A CSV record: the line it starts on, and its fields.
type Row = (usize, Vec<String>);

/// The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes doubled and line
/// breaks), each with the line it starts on; an unclosed quote names its line.
fn csv_rows(text: &str) -> Result<Vec<Row>, (usize, String)> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let (mut line, mut start) = (1, 1);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push((start, std::mem::take(&mut row)));
                line += 1;
                start = line;
            }
            (_, '\n') => {
                line += 1;
                field.push('\n');
            }
            (_, c) => field.push(c),
        }
    }
    if quoted {
        return Err((start, "a quoted field is never closed".into()));
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push((start, row));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    #![expect(clippy::unwrap_used, reason = "tests")]
    use super::*;

    const HEADER: &str = "Name 6,Name 1,Name 2,Name 3,Name 4,Name 5,Title,DOB,Group Type,Group ID";

    fn list(rows: &[&str]) -> SanctionsList {
        let text = format!("Last Updated,01/11/2026\n{HEADER}\n{}\n", rows.join("\n"));
        SanctionsList::parse("test.csv", &text).unwrap()
    }

    #[test]
    fn names_compare_without_case_accents_punctuation_or_order() {
        let l = list(&["KOVALENKO,Dmytro,,,,,Mr,12/03/1971,Individual,9001"]);
        let dob = NaiveDate::from_ymd_opt(1971, 3, 12);
        for (first, last) in [
            ("Dmytro", "Kovalenko"),
            ("DMYTRO", "kovalenko"),
            ("Kovalenko", "Dmytro"),
            ("Dmýtro", "Kovalenko"),
        ] {
            assert!(l.screen(first, last, dob, 90).is_some(), "{first} {last}");
        }
    }

    #[test]
    fn the_date_of_birth_the_list_gives_must_agree() {
        let l = list(&["KOVALENKO,Dmytro,,,,,,00/00/1971,Individual,9001"]);
        assert!(
            l.screen(
                "Dmytro",
                "Kovalenko",
                NaiveDate::from_ymd_opt(1971, 8, 1),
                90
            )
            .is_some()
        );
        assert!(
            l.screen(
                "Dmytro",
                "Kovalenko",
                NaiveDate::from_ymd_opt(1985, 8, 1),
                90
            )
            .is_none()
        );
    }

    #[test]
    fn a_quoted_field_may_hold_commas_and_line_breaks() {
        let rows = csv_rows("a,\"b, c\",\"d\"\"e\"\n\"f\ng\",h\n").unwrap();
        assert_eq!(
            rows[0],
            (
                1,
                vec!["a".to_owned(), "b, c".to_owned(), "d\"e".to_owned()]
            )
        );
        assert_eq!(rows[1], (2, vec!["f\ng".to_owned(), "h".to_owned()]));
        assert_eq!(csv_rows("a,\"b\n").unwrap_err().0, 1);
    }

    #[test]
    fn a_file_that_is_not_the_list_says_where() {
        let e = SanctionsList::parse("x.csv", "Name,DOB\n").unwrap_err();
        assert!(
            e.contains("x.csv line 1") && e.contains("Last Updated"),
            "{e}"
        );
        let e = SanctionsList::parse("x.csv", "Last Updated,01/11/2026\nName 6,DOB\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("\"Name 1\""), "{e}");
        let e =
            SanctionsList::parse("x.csv", &format!("Last Updated,x\n{HEADER}\nA,B\n")).unwrap_err();
        assert!(e.contains("line 3") && e.contains("2 columns"), "{e}");
    }
}

#[cfg(test)]
mod variants;
