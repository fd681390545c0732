//! Article numbers: the "nearby numbers" hint for an unknown article, in natural order.

use super::normalise_nummer;

/// Up to `around` numbers before and after the place where `wanted` would stand (natural order: `5.2` <
/// `5.15` < `5.15a`), in document order; for the hint on an unknown article.
pub fn nearby_numbers(numbers: &[String], wanted: &str, around: usize) -> Vec<String> {
    if numbers.is_empty() {
        return Vec::new();
    }
    let key = natural_key(&normalise_nummer(wanted));
    let index = numbers
        .iter()
        .position(|n| natural_key(&normalise_nummer(n)) >= key)
        .unwrap_or(numbers.len());
    let start = index.saturating_sub(around);
    let end = (index + around).min(numbers.len());
    numbers[start..end].to_vec()
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Chunk {
    Number(u64),
    Text(String),
}

fn natural_key(nummer: &str) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut rest = nummer;
    while let Some(c) = rest.chars().next() {
        let digits = c.is_ascii_digit();
        let len = rest
            .find(|x: char| x.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (part, tail) = rest.split_at(len);
        chunks.push(if digits {
            Chunk::Number(part.parse().unwrap_or(u64::MAX))
        } else {
            Chunk::Text(part.to_owned())
        });
        rest = tail;
    }
    chunks
}
