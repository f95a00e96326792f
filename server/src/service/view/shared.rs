//! What several parts of a page share, sent once: each shared value written at its
//! first place and named by reference after.

/// A value sent once in the view's `shared` list and referred to by its position.
#[derive(serde::Serialize)]
pub struct SharedRef {
    #[serde(rename = "$ref")]
    index: usize,
}

/// A value of the view's `shared` list.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub enum SharedValue<'a> {
    Row(&'a engine::journey::quoting::Term),
    Rows(Vec<SharedRef>),
    Flexy(&'a engine::journey::quoting::FlexyOptions),
    Coins(&'a engine::journey::quoting::CoinsList),
    Claim(&'a engine::journey::quoting::ClaimExample),
}

/// The values that repeat across a view's products (benefit rows and their lists, excess options,
/// claim examples), each once: rows and lists by identity (the engine makes each once per
/// page), the rest by value.
#[derive(Default)]
pub(super) struct Shared<'a> {
    pub(super) values: Vec<SharedValue<'a>>,
    pub(super) rows: PtrMap<engine::journey::quoting::Term>,
    pub(super) lists: PtrMap<std::sync::Arc<engine::journey::quoting::Term>>,
    pub(super) flexy: Vec<(&'a engine::journey::quoting::FlexyOptions, usize)>,
    pub(super) coins: Vec<(&'a engine::journey::quoting::CoinsList, usize)>,
    pub(super) claims: Vec<(&'a engine::journey::quoting::ClaimExample, usize)>,
}

/// A map keyed by address: the values the engine shares (`Arc`s) are known by where they are,
/// so the key is hashed as the one number it is, not fed through SipHash.
pub(super) type PtrMap<T> =
    std::collections::HashMap<*const T, usize, std::hash::BuildHasherDefault<AddressHasher>>;

/// Hashes an address (one `usize`): a multiply spreads its bits (addresses share their low
/// ones). Only for keys the server made, never for anything a client sends.
#[derive(Default)]
pub(super) struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

impl<'a> Shared<'a> {
    fn push(&mut self, value: SharedValue<'a>) -> usize {
        self.values.push(value);
        self.values.len() - 1
    }

    /// The place of a value kept by value (equal values share one place). A page has a few
    /// distinct values of each kind (one per species, excess or limit), so they are found by
    /// looking along the few seen, the same address first.
    pub(super) fn by_value<T: Eq>(
        values: &mut Vec<SharedValue<'a>>,
        seen: &mut Vec<(&'a T, usize)>,
        value: &'a T,
        wrap: fn(&'a T) -> SharedValue<'a>,
    ) -> SharedRef {
        let found = seen
            .iter()
            .find(|(v, _)| std::ptr::eq(*v, value))
            .or_else(|| seen.iter().find(|(v, _)| *v == value))
            .map(|(_, i)| *i);
        let index = found.unwrap_or_else(|| {
            values.push(wrap(value));
            let i = values.len() - 1;
            seen.push((value, i));
            i
        });
        SharedRef { index }
    }

    pub(super) fn list(&mut self, terms: &'a engine::journey::quoting::TermList) -> SharedRef {
        // The engine makes each list once per page: the products that share it share its
        // address.
        let key = terms.as_ptr();
        if let Some(&index) = self.lists.get(&key) {
            return SharedRef { index };
        }
        let rows = terms
            .iter()
            .map(|t| {
                let ptr = std::sync::Arc::as_ptr(t);
                let index = match self.rows.get(&ptr) {
                    Some(&i) => i,
                    None => {
                        let i = self.push(SharedValue::Row(t));
                        self.rows.insert(ptr, i);
                        i
                    }
                };
                SharedRef { index }
            })
            .collect();
        let index = self.push(SharedValue::Rows(rows));
        self.lists.insert(key, index);
        SharedRef { index }
    }
}
