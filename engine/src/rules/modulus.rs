//! UK bank account modulus checking (owner-payment.md §4 Bank validation), from Vocalink's
//! (Pay.UK) "Validating account numbers" specification: the weight table (`valacdos.txt`) and the
//! sort code substitution table (`scsubtab.txt`) are data, parsed here from either Vocalink's
//! own fixed-width layout or a comma-separated copy, so a newer table dropped in needs no code
//! change. Pure: the server reads the files and asks.
//!
//! Digits are named as the specification names them: u v w x y z (the sort code) then a b c d e
//! f g h (the account number); each row's fourteen weights apply to them in that order.

use std::collections::BTreeMap;

/// How a row's check is worked out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Mod10,
    Mod11,
    /// Double alternate: the digits of each product are summed, modulus 10.
    DblAl,
}

/// One row of the weight table: a range of sort codes, its method, weights and exception.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub start: u32,
    pub end: u32,
    pub method: Method,
    pub weights: [i64; 14],
    pub exception: Option<u8>,
}

/// The weight and substitution tables.
#[derive(Debug, Clone, Default)]
pub struct ModulusTables {
    rows: Vec<Row>,
    substitutions: BTreeMap<u32, u32>,
}

/// A line of a table file that could not be read: which file, which line, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file} line {line}: {problem}")]
pub struct TableError {
    pub file: String,
    pub line: usize,
    pub problem: String,
}

/// Why an account number and sort code cannot be checked at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The sort code is not six digits.
    SortCode,
    /// The account number is not 6 to 10 digits.
    AccountNumber,
}

/// The result of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Valid,
    Invalid,
    /// The sort code is in no row, or the account is one the table says cannot be checked
    /// (exception 6): Vocalink's rule is to accept it.
    NotCheckable,
}

impl Outcome {
    /// Whether the details are accepted (valid, or not checkable).
    pub fn accepted(self) -> bool {
        self != Outcome::Invalid
    }
}

fn fields(line: &str) -> Vec<&str> {
    if line.contains(',') {
        line.split(',').map(str::trim).collect()
    } else {
        line.split_whitespace().collect()
    }
}

fn sort_code_number(s: &str) -> Option<u32> {
    (s.len() == 6 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

impl ModulusTables {
    /// Parses the weight table and the substitution table. Blank lines are skipped; any other
    /// line that is not a row is an error naming its file and line.
    pub fn parse(valacdos: &str, scsubtab: &str) -> Result<Self, Vec<TableError>> {
        let mut errors = Vec::new();
        let mut rows = Vec::new();
        for (i, line) in valacdos.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let err = |problem: String| TableError {
                file: "valacdos.txt".into(),
                line: i + 1,
                problem,
            };
            let f = fields(line);
            if f.len() != 17 && f.len() != 18 {
                errors.push(err(format!(
                    "expected start, end, method, 14 weights and an optional exception; found {} fields",
                    f.len()
                )));
                continue;
            }
            let (Some(start), Some(end)) = (sort_code_number(f[0]), sort_code_number(f[1])) else {
                errors.push(err("the sort codes must be six digits".into()));
                continue;
            };
            if start > end {
                errors.push(err(format!("the range {} to {} is backwards", f[0], f[1])));
                continue;
            }
            let method = match f[2].to_ascii_uppercase().as_str() {
                "MOD10" => Method::Mod10,
                "MOD11" => Method::Mod11,
                "DBLAL" => Method::DblAl,
                other => {
                    errors.push(err(format!("unknown method {other:?}")));
                    continue;
                }
            };
            let mut weights = [0i64; 14];
            let mut bad = false;
            for (k, w) in f[3..17].iter().enumerate() {
                match w.parse::<i64>() {
                    Ok(v) => weights[k] = v,
                    Err(_) => bad = true,
                }
            }
            if bad {
                errors.push(err("the weights must be whole numbers".into()));
                continue;
            }
            let exception = match f.get(17) {
                None => None,
                Some(e) => match e.parse::<u8>() {
                    Ok(n) if (1..=14).contains(&n) => Some(n),
                    _ => {
                        errors.push(err(format!("exception {e:?} is not 1 to 14")));
                        continue;
                    }
                },
            };
            rows.push(Row {
                start,
                end,
                method,
                weights,
                exception,
            });
        }
        let mut substitutions = BTreeMap::new();
        for (i, line) in scsubtab.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let f = fields(line);
            match (
                f.as_slice(),
                f.first().and_then(|s| sort_code_number(s)),
                f.get(1).and_then(|s| sort_code_number(s)),
            ) {
                ([_, _], Some(from), Some(to)) => {
                    substitutions.insert(from, to);
                }
                _ => errors.push(TableError {
                    file: "scsubtab.txt".into(),
                    line: i + 1,
                    problem: "expected two six-digit sort codes".into(),
                }),
            }
        }
        if rows.is_empty() && errors.is_empty() {
            errors.push(TableError {
                file: "valacdos.txt".into(),
                line: 0,
                problem: "the weight table has no rows".into(),
            });
        }
        if errors.is_empty() {
            Ok(Self {
                rows,
                substitutions,
            })
        } else {
            Err(errors)
        }
    }

    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    fn rows_for(&self, sort_code: u32) -> Vec<&Row> {
        self.rows
            .iter()
            .filter(|r| r.start <= sort_code && sort_code <= r.end)
            .take(2)
            .collect()
    }

    /// Checks a sort code (six digits, spaces and dashes allowed) and account number (6 to 10
    /// digits, spaces allowed).
    pub fn check(&self, sort_code: &str, account: &str) -> Result<Outcome, Shape> {
        let sc = sort_code_digits(sort_code).ok_or(Shape::SortCode)?;
        let acc = account_digits(account).ok_or(Shape::AccountNumber)?;
        let (sc, acc) = standardise(&sc, &acc);
        Ok(self.check_standard(&sc, &acc))
    }

    /// Checks a six-digit sort code and an eight-digit account number.
    fn check_standard(&self, sc: &str, acc: &str) -> Outcome {
        let Some(sort_number) = sort_code_number(sc) else {
            return Outcome::Invalid;
        };
        let rows = self.rows_for(sort_number);
        let Some(first) = rows.first() else {
            return Outcome::NotCheckable;
        };
        let digits = digits_of(sc, acc);
        let (a, g, h) = (digits[6], digits[12], digits[13]);

        // Exception 6: foreign currency accounts (a is 4 to 8 and g equals h) cannot be checked.
        if rows.iter().any(|r| r.exception == Some(6)) && (4..=8).contains(&a) && g == h {
            return Outcome::NotCheckable;
        }

        let second = rows.get(1);
        // Exception 5: both checks with the substituted sort code and check digits g then h.
        if first.exception == Some(5) {
            let substituted = self
                .substitutions
                .get(&sort_number)
                .map(|s| format!("{s:06}"))
                .unwrap_or_else(|| sc.to_owned());
            let d = digits_of(&substituted, acc);
            let pass1 = exception_5_first(first, &d);
            let pass2 = second.is_none_or(|r| exception_5_second(r, &d));
            return if pass1 && pass2 {
                Outcome::Valid
            } else {
                Outcome::Invalid
            };
        }

        let pass1 = run_row(first, &digits, acc);
        let Some(second) = second else {
            return verdict(pass1);
        };
        match (first.exception, second.exception) {
            // Exceptions 2 and 9 (Lloyds euro accounts): the first check passing is enough;
            // otherwise the second is made with sort code 309634.
            (Some(2), Some(9)) => {
                if pass1 {
                    return Outcome::Valid;
                }
                let d = digits_of("309634", acc);
                verdict(run_row(second, &d, acc))
            }
            // Exceptions 10 and 11, 12 and 13: either check passing is enough.
            (Some(10), Some(11)) | (Some(12), Some(13)) => {
                verdict(pass1 || run_row(second, &digits, acc))
            }
            _ => {
                // Exception 3: no double alternate check when c is 6 or 9.
                if second.exception == Some(3) && (digits[8] == 6 || digits[8] == 9) {
                    return verdict(pass1);
                }
                verdict(pass1 && run_row(second, &digits, acc))
            }
        }
    }
}

fn verdict(pass: bool) -> Outcome {
    if pass {
        Outcome::Valid
    } else {
        Outcome::Invalid
    }
}

/// The fourteen digits u..z a..h.
fn digits_of(sc: &str, acc: &str) -> [i64; 14] {
    let mut d = [0i64; 14];
    for (i, b) in sc.bytes().chain(acc.bytes()).take(14).enumerate() {
        d[i] = i64::from(b - b'0');
    }
    d
}

/// Vocalink's standardisation of non-standard account numbers to eight digits: 6 and 7 digits
/// are left-padded with zeros; 9 digits (Santander) move the first account digit into the last
/// sort code digit; 10 digits use the first 8 for the Co-operative Bank and Leeds Building
/// Society (sort codes 08-xx-xx) and the last 8 otherwise (NatWest).
fn standardise(sc: &str, acc: &str) -> (String, String) {
    match acc.len() {
        6 => (sc.to_owned(), format!("00{acc}")),
        7 => (sc.to_owned(), format!("0{acc}")),
        9 => (format!("{}{}", &sc[..5], &acc[..1]), acc[1..].to_owned()),
        10 if sc.starts_with("08") => (sc.to_owned(), acc[..8].to_owned()),
        10 => (sc.to_owned(), acc[2..].to_owned()),
        _ => (sc.to_owned(), acc.to_owned()),
    }
}

fn weighted_sum(weights: &[i64; 14], d: &[i64; 14], method: Method) -> i64 {
    weights
        .iter()
        .zip(d)
        .map(|(w, x)| {
            let p = w * x;
            if method == Method::DblAl {
                // The digits of each product: products are at most 2 digits (weights up to 9).
                p / 10 + p % 10
            } else {
                p
            }
        })
        .sum()
}

/// One row's check with its exception's changes to weights and remainders.
fn run_row(row: &Row, d: &[i64; 14], acc: &str) -> bool {
    let mut weights = row.weights;
    let mut digits = *d;
    let (a, b, g) = (d[6], d[7], d[12]);
    match row.exception {
        // Exception 2: Lloyds; weights by a and g.
        Some(2) if a != 0 => {
            weights = if g == 9 {
                [0, 0, 0, 0, 0, 0, 0, 0, 8, 7, 10, 9, 3, 1]
            } else {
                [0, 0, 1, 2, 5, 3, 6, 4, 8, 7, 10, 9, 3, 1]
            };
        }
        // Exception 7: when g is 9, zero the weights u to b.
        Some(7) if g == 9 => weights[..8].iter_mut().for_each(|w| *w = 0),
        // Exception 8: the sort code 090126 is used.
        Some(8) => digits = digits_of("090126", acc),
        // Exception 10: when ab is 09 or 99 and g is 9, zero the weights u to b.
        Some(10) if (a == 0 || a == 9) && b == 9 && g == 9 => {
            weights[..8].iter_mut().for_each(|w| *w = 0);
        }
        _ => {}
    }
    let mut total = weighted_sum(&weights, &digits, row.method);
    if row.exception == Some(1) {
        total += 27;
    }
    let pass = match row.method {
        Method::Mod10 | Method::DblAl => total % 10 == 0,
        // Exception 4: the remainder is the two-digit number gh.
        Method::Mod11 if row.exception == Some(4) => total % 11 == digits[12] * 10 + digits[13],
        Method::Mod11 => total % 11 == 0,
    };
    if pass || row.exception != Some(14) {
        return pass;
    }
    // Exception 14 (Coutts): if h is 0, 1 or 9, drop it, shift the account right and check again.
    let h = digits[13];
    if !matches!(h, 0 | 1 | 9) {
        return false;
    }
    let shifted = format!("0{}", &acc[..7]);
    let d2 = digits_of(&sc_of(&digits), &shifted);
    weighted_sum(&weights, &d2, row.method) % 11 == 0
}

fn sc_of(d: &[i64; 14]) -> String {
    d[..6]
        .iter()
        .map(|x| char::from(b'0' + u8::try_from(*x).unwrap_or(0)))
        .collect()
}

/// Exception 5, first check (MOD11): check digit g; a remainder of 0 needs g = 0, of 1 fails,
/// otherwise 11 − remainder = g.
fn exception_5_first(row: &Row, d: &[i64; 14]) -> bool {
    let r = weighted_sum(&row.weights, d, row.method) % 11;
    match r {
        0 => d[12] == 0,
        1 => false,
        _ => 11 - r == d[12],
    }
}

/// Exception 5, second check (DBLAL): check digit h; a remainder of 0 needs h = 0, otherwise
/// 10 − remainder = h.
fn exception_5_second(row: &Row, d: &[i64; 14]) -> bool {
    let r = weighted_sum(&row.weights, d, row.method) % 10;
    if r == 0 { d[13] == 0 } else { 10 - r == d[13] }
}

/// A sort code as people write it ("08-99-99", "08 99 99", "089999"): its six digits, or
/// `None`. The one set of accepted forms for every call that takes a sort code.
pub fn sort_code_digits(typed: &str) -> Option<String> {
    let digits: String = typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\u{a0}'))
        .collect();
    (digits.len() == 6 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// A sort code in the form the quote stores and the spec writes ("08-99-99"), from any accepted
/// form; `None` when it is not one.
pub fn sort_code_dashed(typed: &str) -> Option<String> {
    sort_code_digits(typed).map(|d| format!("{}-{}-{}", &d[0..2], &d[2..4], &d[4..6]))
}

/// An account number as people write it (spaces allowed): its 6 to 10 digits, or `None`.
pub fn account_digits(typed: &str) -> Option<String> {
    let digits: String = typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}'))
        .collect();
    ((6..=10).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()))
        .then_some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_standard_lengths_become_eight_digits() {
        assert_eq!(
            standardise("123456", "123456"),
            ("123456".into(), "00123456".into())
        );
        assert_eq!(
            standardise("123456", "1234567"),
            ("123456".into(), "01234567".into())
        );
        assert_eq!(
            standardise("090000", "123456789"),
            ("090001".into(), "23456789".into())
        );
        assert_eq!(
            standardise("089999", "1234567890"),
            ("089999".into(), "12345678".into())
        );
        assert_eq!(
            standardise("600000", "1234567890"),
            ("600000".into(), "34567890".into())
        );
    }

    #[test]
    fn a_bad_line_is_named() {
        let errors = ModulusTables::parse("010004,016715,MOD11,0,0\n", "938173,938017\nnope\n")
            .expect_err("refused");
        assert_eq!(errors[0].line, 1);
        assert!(errors[0].problem.contains("found 5 fields"));
        assert_eq!(errors[1].file, "scsubtab.txt");
        assert_eq!(errors[1].line, 2);
    }

    #[test]
    fn vocalinks_fixed_width_layout_reads_the_same() {
        let fixed = "010004 016715 MOD11     0    0    0    0    0    0    8    7    6    5    4    3    2    1\n";
        let comma = "010004,016715,MOD11,0,0,0,0,0,0,8,7,6,5,4,3,2,1\n";
        let a = ModulusTables::parse(fixed, "").expect("fixed");
        let b = ModulusTables::parse(comma, "").expect("comma");
        assert_eq!(a.rows, b.rows);
    }
}
