//! Names as screening tools compare them: normalised into tokens (case, accents, punctuation,
//! spacing and invisible characters ignored; look-alike letters of other scripts folded by
//! Unicode's confusable skeletons, UTS #39; Cyrillic and Greek transliterated), then matched as
//! sets of tokens (extra or missing middle names, split, joined or hyphenated compound surnames,
//! initials and short forms of given names, one or two slips a token), scored for the whole name.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;

/// The longest name read, in characters (longer input is cut, so one comparison stays cheap).
const MAX_NAME_CHARS: usize = 120;
/// The most tokens of one name compared (a name of more words keeps its first ones).
const MAX_TOKENS: usize = 8;

/// How alike two tokens are, by the kind of likeness (per cent).
const EXACT: u32 = 100;
const SHORT_FORM: u32 = 95;
const ONE_SLIP: u32 = 92;
const PREFIX: u32 = 90;
const TWO_SLIPS: u32 = 88;
const INITIAL: u32 = 85;

/// One word of a name: its spellings (the first as written, then a transliteration, a
/// look-alike folding or the full form of a short form), and whether it is (part of) a surname.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    pub(super) forms: Vec<String>,
    pub(super) surname: bool,
    /// How many of `forms` come from the word's own letters (the rest from the short forms).
    pub(super) letters: usize,
}

/// Given names with their usual short forms (`server/data/sanctions/short-forms.csv`): each
/// name maps to the other names of its lines.
#[derive(Debug, Clone, Default)]
pub struct ShortForms(HashMap<String, Vec<String>>);

impl ShortForms {
    /// The table from its CSV text: `full,short,short…` a line, `#` for a comment.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let names: Vec<String> = line
                .split(',')
                .map(|n| n.trim().to_lowercase())
                .filter(|n| !n.is_empty())
                .collect();
            if names.len() < 2
                || names
                    .iter()
                    .any(|n| !n.chars().all(|c| c.is_ascii_lowercase()))
            {
                return Err(format!(
                    "short forms line {}: a full name and its short forms, in letters a to z, separated by commas",
                    n + 1
                ));
            }
            for name in &names {
                let others = map.entry(name.clone()).or_default();
                for other in &names {
                    if other != name && !others.contains(other) {
                        others.push(other.clone());
                    }
                }
            }
        }
        Ok(Self(map))
    }

    fn of(&self, name: &str) -> &[String] {
        self.0.get(name).map_or(&[], Vec::as_slice)
    }
}

/// The tokens of a name part (`surname` marks each as a surname's).
pub(super) fn tokens(part: &str, surname: bool) -> Vec<Token> {
    words(part)
        .into_iter()
        .take(MAX_TOKENS)
        .map(|forms| Token {
            letters: forms.len(),
            forms,
            surname,
        })
        .collect()
}

/// The customer's tokens, each with the full forms of a short form it may be.
pub(super) fn with_short_forms(mut tokens: Vec<Token>, table: &ShortForms) -> Vec<Token> {
    for token in &mut tokens {
        if token.surname {
            continue;
        }
        let extra: Vec<String> = token
            .forms
            .iter()
            .flat_map(|f| table.of(f).iter().cloned())
            .collect();
        for form in extra {
            if !token.forms.contains(&form) {
                token.forms.push(form);
            }
        }
    }
    tokens
}

/// A name's words, each as its spellings: invisible characters dropped, accents taken off, lower
/// case; apostrophes joined ("O'Neill" is "oneill"), anything else but letters and digits a break
/// between words.
fn words(name: &str) -> Vec<Vec<String>> {
    let cut: String = name.chars().take(MAX_NAME_CHARS).collect();
    let mut out = Vec::new();
    let mut word = String::new();
    let plain = cut
        .nfkd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c));
    for c in plain {
        if invisible(c) || matches!(c, '\'' | '’' | 'ʼ' | '‘' | '`' | '´') {
            continue;
        }
        if c.is_alphanumeric() {
            word.push(c);
        } else if !word.is_empty() {
            out.push(spellings(&std::mem::take(&mut word)));
        }
    }
    if !word.is_empty() {
        out.push(spellings(&word));
    }
    out.retain(|forms: &Vec<String>| !forms.is_empty());
    out
}

/// A character with no look of its own (zero-width spaces and joiners, soft hyphens, direction
/// marks, variation selectors…): UTS #39's skeleton drops Unicode's default-ignorable points.
fn invisible(c: char) -> bool {
    !c.is_ascii()
        && unicode_security::skeleton(c.encode_utf8(&mut [0; 4]))
            .next()
            .is_none()
}

/// One word's spellings in Latin letters: as folded letter by letter (a look-alike letter of
/// another script taken for the Latin letter it looks like), and, for a word with letters of
/// another script, transliterated too.
fn spellings(word: &str) -> Vec<String> {
    let lower: String = word.chars().flat_map(char::to_lowercase).collect();
    let folded: String = lower
        .chars()
        .map(|c| {
            let looks = look_alike(c);
            if looks.is_ascii() {
                looks
            } else {
                transliterate(c)
            }
        })
        .collect();
    let mut forms = vec![folded];
    if !lower.is_ascii() {
        let translit: String = lower.chars().map(transliterate).collect();
        if !forms.contains(&translit) {
            forms.push(translit);
        }
    }
    forms
}

/// A letter as the Latin letter its skeleton is (Cyrillic "о" is "o"); itself otherwise.
fn look_alike(c: char) -> String {
    if c.is_ascii() {
        return c.to_string();
    }
    let skeleton: String = unicode_security::skeleton(c.encode_utf8(&mut [0; 4]))
        .flat_map(char::to_lowercase)
        .collect();
    if !skeleton.is_empty() && skeleton.chars().all(|s| s.is_ascii_alphanumeric()) {
        skeleton
    } else {
        c.to_string()
    }
}

/// A Cyrillic or Greek letter in Latin letters (the BGN/PCGN and ELOT romanisations, simplified);
/// any other letter as it looks.
fn transliterate(c: char) -> String {
    let latin = match c {
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' => "g",
        'ґ' => "g",
        'д' => "d",
        'е' => "e",
        'ё' => "e",
        'є' => "ye",
        'ж' => "zh",
        'з' => "z",
        'и' => "i",
        'і' => "i",
        'ї' => "yi",
        'й' => "y",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' => "u",
        'ф' => "f",
        'х' => "kh",
        'ц' => "ts",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "shch",
        'ъ' => "",
        'ы' => "y",
        'ь' => "",
        'э' => "e",
        'ю' => "yu",
        'я' => "ya",
        'ў' => "w",
        'ј' => "j",
        'љ' => "lj",
        'њ' => "nj",
        'ћ' => "c",
        'ђ' => "dj",
        'џ' => "dz",
        'ѕ' => "dz",
        'α' => "a",
        'β' => "v",
        'γ' => "g",
        'δ' => "d",
        'ε' => "e",
        'ζ' => "z",
        'η' => "i",
        'θ' => "th",
        'ι' => "i",
        'κ' => "k",
        'λ' => "l",
        'μ' => "m",
        'ν' => "n",
        'ξ' => "x",
        'ο' => "o",
        'π' => "p",
        'ρ' => "r",
        'σ' | 'ς' => "s",
        'τ' => "t",
        'υ' => "y",
        'φ' => "f",
        'χ' => "ch",
        'ψ' => "ps",
        'ω' => "o",
        _ => return look_alike(c),
    };
    latin.to_owned()
}

/// The keys a token is found by: each spelling and, for one of four letters or more, each
/// spelling with one letter left out. Two spellings one slip apart (a letter changed, added,
/// dropped or two swapped) share a key. (A slip counts only between words of five letters or
/// more: one letter in four, "Mary" and "Cary", is another name more often than a slip.)
pub(super) fn keys(token: &Token, mut out: impl FnMut(&str)) {
    for form in &token.forms {
        out(form);
        let chars: Vec<char> = form.chars().collect();
        if chars.len() >= 4 {
            for skip in 0..chars.len() {
                let key: String = chars
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != skip)
                    .map(|(_, c)| *c)
                    .collect();
                out(&key);
            }
        }
    }
}

/// The tokens with one pair of neighbours joined: a compound surname written as one word
/// ("Harrowgate-Plume" as "Harrowgateplume"), or one word written as two.
pub(super) fn joined_variants(tokens: &[Token]) -> Vec<Vec<Token>> {
    (0..tokens.len().saturating_sub(1))
        .map(|i| {
            let mut variant = tokens.to_vec();
            let next = variant.remove(i + 1);
            let first = &mut variant[i];
            first.forms = vec![format!("{}{}", first.forms[0], next.forms[0])];
            first.letters = 1;
            first.surname |= next.surname;
            variant
        })
        .collect()
}

/// How alike two tokens are (per cent), or 0.
fn token_score(customer: &Token, listed: &Token) -> u32 {
    let given = !customer.surname && !listed.surname;
    let mut best = 0;
    for (i, c) in customer.forms.iter().enumerate() {
        for l in &listed.forms {
            let score = if c == l {
                if i >= customer.letters {
                    SHORT_FORM
                } else {
                    EXACT
                }
            } else {
                let (cn, ln) = (c.chars().count(), l.chars().count());
                let shorter = cn.min(ln);
                let slips = if shorter >= 5 { slips(c, l, 2) } else { 3 };
                if slips == 1 {
                    ONE_SLIP
                } else if slips == 2 && shorter >= 8 {
                    TWO_SLIPS
                } else if given
                    && shorter >= 3
                    && (l.starts_with(c.as_str()) || c.starts_with(l.as_str()))
                {
                    PREFIX
                } else if given && cn == 1 && l.starts_with(c.as_str()) {
                    INITIAL
                } else {
                    0
                }
            };
            best = best.max(score);
        }
    }
    best
}

/// The optimal string alignment distance (changes, additions, removals and swaps of neighbours)
/// between `a` and `b`, or `limit + 1` when it is more than `limit`.
fn slips(a: &str, b: &str, limit: usize) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        let mut row_min = usize::MAX;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = v;
            row_min = row_min.min(v);
        }
        if row_min > limit {
            return limit + 1;
        }
    }
    d[a.len() * width + b.len()].min(limit + 1)
}

/// How alike a customer's name and a listed name are (per cent), or `None` when they do not
/// match: at least two tokens (one, for a listed name of one word) must pair off, one of them a
/// slip or nearer and one a listed surname's where the list gives a surname; the score is the
/// mean of the pairs. Extra words on either side (a middle name, a second surname) cost nothing.
pub(super) fn name_score(customer: &[Token], listed: &[Token]) -> Option<u32> {
    let mut best: Option<u32> = None;
    let customers = std::iter::once(customer.to_vec()).chain(joined_variants(customer));
    for c in customers {
        let listeds = std::iter::once(listed.to_vec()).chain(joined_variants(listed));
        for l in listeds {
            if let Some(score) = aligned(&c, &l) {
                best = Some(best.map_or(score, |b| b.max(score)));
            }
        }
    }
    best
}

fn aligned(customer: &[Token], listed: &[Token]) -> Option<u32> {
    let mut pairs: Vec<(u32, usize, usize)> = Vec::new();
    for (i, c) in customer.iter().enumerate() {
        for (j, l) in listed.iter().enumerate() {
            let score = token_score(c, l);
            if score > 0 {
                pairs.push((score, i, j));
            }
        }
    }
    pairs.sort_unstable_by_key(|p| std::cmp::Reverse(p.0));
    let (mut used_c, mut used_l) = (0u32, 0u32);
    let (mut total, mut count, mut strong, mut surname) = (0, 0, false, false);
    for (score, i, j) in pairs {
        if used_c & (1 << i) != 0 || used_l & (1 << j) != 0 {
            continue;
        }
        used_c |= 1 << i;
        used_l |= 1 << j;
        total += score;
        count += 1;
        strong |= score >= ONE_SLIP;
        surname |= listed[j].surname;
    }
    let needed = if listed.len() == 1 { 1 } else { 2 };
    let has_surname = listed.iter().any(|t| t.surname);
    if count < needed || !strong || (has_surname && !surname) {
        return None;
    }
    if listed.len() == 1 && total < EXACT {
        return None;
    }
    Some(total / count)
}

#[cfg(test)]
mod tests {
    #![expect(clippy::unwrap_used, reason = "tests")]
    use super::*;

    fn name(given: &str, surname: &str) -> Vec<Token> {
        let mut t = tokens(given, false);
        t.extend(tokens(surname, true));
        t
    }

    #[test]
    fn words_ignore_case_accents_punctuation_and_invisible_characters() {
        let forms = |s: &str| {
            words(s)
                .into_iter()
                .map(|f| f[0].clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(forms("  O'Neill-Smith, Zoë "), ["oneill", "smith", "zoe"]);
        assert_eq!(forms("Qua\u{200B}nd\u{00AD}rell\u{2060}"), ["quandrell"]);
        // Cyrillic "а" and "о" in a Latin word are the Latin letters they look like.
        assert_eq!(forms("Quаndrеll Оstap"), ["quandrell", "ostap"]);
    }

    #[test]
    fn a_word_in_cyrillic_is_transliterated() {
        let w = words("Остап Квандрелл");
        assert!(w[0].contains(&"ostap".to_owned()), "{w:?}");
        assert!(w[1].contains(&"kvandrell".to_owned()), "{w:?}");
    }

    #[test]
    fn slips_count_changes_additions_removals_and_swaps() {
        assert_eq!(slips("quandrell", "quandrell", 2), 0);
        assert_eq!(slips("quandrell", "quandrel", 2), 1);
        assert_eq!(slips("quandrell", "qaundrell", 2), 1);
        assert_eq!(slips("quandrell", "kwandrell", 2), 2);
        assert_eq!(slips("abc", "xyzabc", 2), 3);
    }

    #[test]
    fn short_forms_read_and_refuse_what_is_not_a_name() {
        let table = ShortForms::parse("# c\nrobert,bob,rob\n").unwrap();
        assert_eq!(table.of("bob"), ["robert", "rob"]);
        assert!(
            ShortForms::parse("robert\n")
                .unwrap_err()
                .contains("line 1")
        );
        assert!(ShortForms::parse("robert,b0b\n").is_err());
    }

    #[test]
    fn the_whole_name_is_scored() {
        let listed = name("Ostap Ferrin", "Quandrell");
        assert_eq!(name_score(&name("Ostap", "Quandrell"), &listed), Some(100));
        assert_eq!(name_score(&name("Ostap", "Quandrel"), &listed), Some(96));
        assert!(name_score(&name("Ostap", "Smith"), &listed).is_none());
        assert!(name_score(&name("Peter", "Quandrell"), &listed).is_none());
    }
}
