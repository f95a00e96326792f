//! Sanctions screening (issue 58): a UK insurer may not sell cover to a person on the UK financial
//! sanctions list. The list is OFSI's consolidated list in its published CSV form (`ConList.csv`:
//! a "Last Updated" line, a header line, then one row per name, the rows of one listed person
//! sharing a `Group ID`), read at start from `PAWPATH_SANCTIONS_LIST`, so a new list is a file
//! swapped and a restart, never a code change. The policyholder's name and date of birth are
//! screened before a purchase, as screening tools do it: case, accents, punctuation and word
//! order ignored, names compared by similarity against a threshold (`PAWPATH_SANCTIONS_THRESHOLD`),
//! and a listed date of birth, where the list gives one, must agree.

use chrono::{Datelike, NaiveDate};
use unicode_normalization::UnicodeNormalization;

/// The largest list file read (OFSI's is a few megabytes).
const MAX_BYTES: usize = 64 * 1024 * 1024;
/// The most rows read.
const MAX_ROWS: usize = 500_000;
/// The longest name compared, in characters (longer input is cut, so one comparison stays cheap).
const MAX_NAME_CHARS: usize = 120;

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
}

/// One listed person: every name the list gives them (as normalised words), every date of birth.
#[derive(Debug, Clone)]
struct Listed {
    group_id: String,
    names: Vec<Vec<String>>,
    births: Vec<ListedDate>,
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
    /// The list's own "Last Updated" date, as it gives it.
    pub updated: String,
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
            let mut words: Vec<String> = given.iter().flat_map(|&i| words_of(&row[i])).collect();
            words.extend(words_of(&row[surname]));
            if words.is_empty() {
                return Err(format!("{file} line {line}: a person with no name"));
            }
            words.sort_unstable();
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
        Ok(Self {
            people: by_group.into_values().collect(),
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
    /// customer's and whose listed date of birth (where the list gives one) agrees with theirs.
    pub fn screen(
        &self,
        first_name: &str,
        last_name: &str,
        date_of_birth: Option<NaiveDate>,
        threshold: u32,
    ) -> Option<PossibleMatch> {
        let mut customer = words_of(first_name);
        customer.extend(words_of(last_name));
        if customer.is_empty() {
            return None;
        }
        customer.sort_unstable();
        self.people
            .iter()
            .filter(|p| {
                p.births.is_empty()
                    || date_of_birth.is_none_or(|dob| p.births.iter().any(|b| b.agrees(dob)))
            })
            .filter_map(|p| {
                let score = p
                    .names
                    .iter()
                    .map(|listed| name_score(&customer, listed))
                    .max()?;
                (score >= threshold).then(|| PossibleMatch {
                    group_id: p.group_id.clone(),
                    score,
                })
            })
            .max_by_key(|m| m.score)
    }
}

/// A name as words to compare: accents taken off, lower case, anything but letters and digits a
/// space between words (so "O'Neill-Smith" is "o neill smith").
fn words_of(name: &str) -> Vec<String> {
    let plain: String = name
        .chars()
        .take(MAX_NAME_CHARS)
        .collect::<String>()
        .nfkd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    plain.split_whitespace().map(str::to_owned).collect()
}

/// How alike two names are, in per cent: the better of the whole names compared in word order
/// (each sorted), and, for a name of two words or more, every one of the customer's words found
/// among the listed name's (a listed middle name the customer did not give does not hide them).
fn name_score(customer: &[String], listed: &[String]) -> u32 {
    let whole = similarity(&customer.join(" "), &listed.join(" "));
    let within = if customer.len() >= 2 {
        customer
            .iter()
            .map(|word| {
                listed
                    .iter()
                    .map(|l| similarity(word, l))
                    .max()
                    .unwrap_or(0)
            })
            .min()
            .unwrap_or(0)
    } else {
        0
    };
    whole.max(within)
}

/// 100 less the edit distance as a share of the longer string, in per cent.
fn similarity(a: &str, b: &str) -> u32 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let longest = a.len().max(b.len());
    if longest == 0 {
        return 100;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    let distance = previous[b.len()];
    u32::try_from(100 * (longest - distance) / longest).unwrap_or(0)
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
        assert_eq!(
            words_of("  O'Neill-Smith, Zoë "),
            ["o", "neill", "smith", "zoe"]
        );
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
