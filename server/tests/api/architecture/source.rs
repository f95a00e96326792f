//! Reading the source as the architecture test needs it: a file's module path, its code without
//! comments and strings, and every module path it names.

/// A source file's module path: `src/routes/api.rs` is `[routes, api]`, `src/http/mod.rs` is
/// `[http]`, `src/lib.rs` and `src/main.rs` the crate root `[]` (main as `[main]`).
pub(super) fn module_of(rel: &str) -> Vec<String> {
    let rel = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Source with comments, string and character literals blanked out (lengths kept).
pub(super) fn code_only(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if chars[i] == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for ch in &chars[i..j.min(chars.len())] {
                out.push(if *ch == '\n' { '\n' } else { ' ' });
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(if chars[i] == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime ('a), left as it is.
            let end = if next == Some('\\') {
                (i + 2..chars.len().min(i + 12)).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for _ in i..=e {
                        out.push(' ');
                    }
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

pub(super) fn ident_at(s: &[u8], mut i: usize) -> (String, usize) {
    let start = i;
    while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
        i += 1;
    }
    (String::from_utf8_lossy(&s[start..i]).into_owned(), i)
}

pub(super) fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The paths of a use tree (or an expression path) starting at `i`, each as its segments.
pub(super) fn paths_at(s: &[u8], i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.to_vec();
    let mut i = skip_ws(s, i);
    loop {
        if s.get(i) == Some(&b'{') {
            i += 1;
            loop {
                i = skip_ws(s, i);
                if s.get(i) == Some(&b'}') {
                    return i + 1;
                }
                i = paths_at(s, i, &path, out);
                i = skip_ws(s, i);
                // `as alias`
                if s[i..].starts_with(b"as ") {
                    let (_, j) = ident_at(s, skip_ws(s, i + 3));
                    i = skip_ws(s, j);
                }
                if s.get(i) == Some(&b',') {
                    i += 1;
                } else if s.get(i) == Some(&b'}') {
                    return i + 1;
                } else {
                    return i;
                }
            }
        }
        let (seg, j) = ident_at(s, i);
        if seg.is_empty() {
            // `*`, or the end of the path.
            out.push(path);
            return i + usize::from(s.get(i) == Some(&b'*'));
        }
        if seg != "self" {
            path.push(seg);
        }
        i = j;
        if s[i..].starts_with(b"::") {
            i = skip_ws(s, i + 2);
        } else {
            out.push(path);
            return i;
        }
    }
}

/// Every module path a file's code names through `crate::` or `super::`, resolved from the
/// crate root.
pub(super) fn references(code: &str, module: &[String]) -> Vec<Vec<String>> {
    // A test module at a file's end sees the file's own module as `super`.
    let tests_at = code
        .match_indices("#[cfg(test)]")
        .find(|(at, m)| code[at + m.len()..].trim_start().starts_with("mod "))
        .map_or(code.len(), |(at, _)| at);
    let s = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let boundary =
            i == 0 || !(s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_' || s[i - 1] == b':');
        if boundary && s[i..].starts_with(b"crate::") {
            let mut found = Vec::new();
            i = paths_at(s, i + 7, &[], &mut found).max(i + 7);
            out.extend(found);
            continue;
        }
        if boundary && s[i..].starts_with(b"super::") {
            // `super` is the parent of this file's module (a folder's mod.rs is the folder's
            // module); in the test module at a file's end, it is the file's own module.
            let mut base: Vec<String> = module.to_vec();
            if i < tests_at {
                base.pop();
            }
            let mut j = i + 7;
            while s[j..].starts_with(b"super::") {
                base.pop();
                j += 7;
            }
            let mut found = Vec::new();
            i = paths_at(s, j, &base, &mut found).max(j);
            out.extend(found);
            continue;
        }
        // A folder's front re-exporting its own files: `pub use brands::*;`.
        if boundary && s[i..].starts_with(b"use ") {
            let j = skip_ws(s, i + 4);
            let (first, _) = ident_at(s, j);
            if !first.is_empty()
                && !["crate", "super", "self", "std", "core"].contains(&first.as_str())
            {
                let mut found = Vec::new();
                paths_at(s, j, module, &mut found);
                out.extend(found);
            }
        }
        i += 1;
    }
    out
}

/// Whether `code` (comments and strings taken out) names the staff tools' module.
pub(super) fn staff_named(code: &str) -> bool {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .any(|path| path.contains("service::staff") || path.starts_with("staff::"))
}

/// Whether `code` (comments and strings taken out) names the engine crate.
pub(super) fn engine_named(code: &str) -> bool {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .any(|path| path.starts_with("engine::") || path == "engine")
}
