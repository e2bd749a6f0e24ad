//! A document that answers several items (issue 52 item 4): a store's read
//! of a list (`read_graph`, `list_notes`, `SELECT *`) answers the planted
//! item among fixed benign ones the store held before. The declaration's
//! pointer has one `*` segment for the list's place
//! (`/entities/*/observations/0`, `/*/body`, `/*`): the part before it is
//! the list, the part after it the content's string inside an item.
//!
//! Which item holds the content is not guessed from the content (a
//! breakout could write a string equal to it into a forged item): the
//! benign answer gives every other item's value, and those come back in
//! their order, each exactly as it was (strings and keys as a reader at
//! the level reads them; numbers by type, as in the rest of the document,
//! since a store's ids and lengths may vary). What is left is the planted
//! item; an item left over beyond it is a forged record, and a benign item
//! not found (removed, altered or moved) is a finding too.

use serde_json::Value;

use super::child;
use crate::reader::Reader;

/// Where a document's items are: the list's pointer and, inside an item,
/// the content's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Items {
    /// The pointer of the array of items (empty: the document itself).
    pub list: String,
    /// The pointer of the content's string inside an item (empty: the
    /// item is the string).
    pub inner: String,
}

/// The segment that stands for "every item of the list".
const EVERY: &str = "*";

/// A pointer with more than one `*` segment: a list of lists, which is
/// not judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeveralStars;

impl Items {
    /// The items a declared pointer names: `None` for a pointer with no
    /// `*` segment (one place), `Err` for one with more than one (a list
    /// of lists is not judged).
    pub fn of(pointer: &str) -> Result<Option<Items>, SeveralStars> {
        let segments: Vec<&str> = pointer.split('/').skip(1).collect();
        let stars: Vec<usize> = (segments.iter().enumerate())
            .filter(|(_, s)| **s == EVERY)
            .map(|(i, _)| i)
            .collect();
        let at = match stars[..] {
            [] => return Ok(None),
            [at] => at,
            _ => return Err(SeveralStars),
        };
        let join = |part: &[&str]| part.iter().map(|s| format!("/{s}")).collect::<String>();
        Ok(Some(Items {
            list: join(&segments[..at]),
            inner: join(&segments[at + 1..]),
        }))
    }

    /// The items of `value`, if its list is an array.
    pub fn list<'v>(&self, value: &'v Value) -> Option<&'v Vec<Value>> {
        value.pointer(&self.list).and_then(Value::as_array)
    }

    /// The string at the content's place in `item`.
    pub fn string<'v>(&self, item: &'v Value) -> Option<&'v str> {
        item.pointer(&self.inner).and_then(Value::as_str)
    }

    /// The pointer of the content's string in item `index`.
    pub fn pointer(&self, index: usize) -> String {
        format!("{}{}", child(&self.list, &index.to_string()), self.inner)
    }

    /// The same items as a reader at some level reads the pointers.
    pub fn folded(&self, reader: Reader) -> Items {
        Items {
            list: reader.fold_str(&self.list),
            inner: reader.fold_str(&self.inner),
        }
    }

    /// `value` with its list cut to the one item `index` (or to none):
    /// the shape the planted item is judged in, as a document of one item.
    pub fn only(&self, value: &Value, index: Option<usize>) -> Value {
        let mut value = value.clone();
        if let Some(Value::Array(list)) = value.pointer_mut(&self.list) {
            let kept = index.and_then(|i| list.get(i).cloned());
            *list = kept.into_iter().collect();
        }
        value
    }
}

/// What differs about the items of an answer, beside the planted one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemChange {
    /// An item no benign answer has: a forged record.
    Forged,
    /// A benign item that is not there as it was: removed, altered or
    /// moved out of its order.
    Lost,
}

impl ItemChange {
    /// What the change is, for a breach's message.
    pub fn what(self) -> &'static str {
        match self {
            ItemChange::Forged => "an item no benign answer has (a forged record)",
            ItemChange::Lost => {
                "a benign item that is not there as it was (removed, altered or moved)"
            }
        }
    }
}

/// The items of an answer, matched against the benign answer's.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Matched {
    /// The index of the planted item, when one is left.
    pub planted: Option<usize>,
    /// Each change, with the pointer of the item (in the answer for a
    /// forged one, in the benign answer for a lost one).
    pub changes: Vec<(String, ItemChange)>,
}

/// Matches `read`, an answer's items, against `benign`, the benign
/// answer's, whose item `planted` held the content: every other benign
/// item must come back in its order and as it was (for `reader`; the
/// longest run of them that does is kept, so one altered item costs only
/// itself); of the items left, the one at the benign planted item's index
/// (else the first) is the planted one and every other is forged.
pub fn match_items(
    items: &Items,
    read: &[Value],
    benign: &[Value],
    planted: usize,
    reader: Reader,
) -> Matched {
    let others: Vec<(usize, Value)> = (benign.iter().enumerate())
        .filter(|(i, _)| *i != planted)
        .map(|(i, v)| (i, as_compared(v, reader)))
        .collect();
    let read_as: Vec<Value> = read.iter().map(|v| as_compared(v, reader)).collect();
    let kept = common(&read_as, &others);
    let left: Vec<usize> = (0..read.len()).filter(|i| !kept[*i].0).collect();
    let chosen = (left.iter().copied())
        .find(|i| *i == planted)
        .or(left.first().copied());
    let mut changes: Vec<(String, ItemChange)> = (others.iter().enumerate())
        .filter(|(j, _)| !kept.iter().any(|k| k.1 == Some(*j)))
        .map(|(_, (i, _))| (child(&items.list, &i.to_string()), ItemChange::Lost))
        .collect();
    changes.extend(
        (left.iter())
            .filter(|i| Some(**i) != chosen)
            .map(|i| (child(&items.list, &i.to_string()), ItemChange::Forged)),
    );
    Matched {
        planted: chosen,
        changes,
    }
}

/// The longest common subsequence of `read` and the benign `others`: for
/// each read item, whether it is in it and which benign item it matches.
fn common(read: &[Value], others: &[(usize, Value)]) -> Vec<(bool, Option<usize>)> {
    let (n, m) = (read.len(), others.len());
    // length[i][j]: the longest common run of read[i..] and others[j..].
    let mut length = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            length[i][j] = if read[i] == others[j].1 {
                length[i + 1][j + 1] + 1
            } else {
                length[i + 1][j].max(length[i][j + 1])
            };
        }
    }
    let mut kept = vec![(false, None); n];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if read[i] == others[j].1 {
            kept[i] = (true, Some(j));
            (i, j) = (i + 1, j + 1);
        } else if length[i + 1][j] >= length[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    kept
}

/// `value` as it is compared: keys and strings as `reader` folds them,
/// every number the same (a number is compared by type).
fn as_compared(value: &Value, reader: Reader) -> Value {
    match value {
        Value::String(s) => Value::String(reader.fold_str(s)),
        Value::Number(_) => Value::from(0),
        Value::Array(items) => Value::Array(items.iter().map(|v| as_compared(v, reader)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (reader.fold_str(k), as_compared(v, reader)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel;
    use serde_json::json;

    #[test]
    fn a_star_segment_splits_the_pointer() {
        let items = Items::of("/entities/*/observations/0").unwrap().unwrap();
        assert_eq!(items.list, "/entities");
        assert_eq!(items.inner, "/observations/0");
        assert_eq!(items.pointer(2), "/entities/2/observations/0");
        let bare = Items::of("/*").unwrap().unwrap();
        assert_eq!((bare.list.as_str(), bare.inner.as_str()), ("", ""));
        assert_eq!(bare.pointer(1), "/1");
        assert_eq!(Items::of("/content"), Ok(None));
        // A key that merely contains a star is a key.
        assert_eq!(Items::of("/a*/b"), Ok(None));
        assert_eq!(Items::of("/*/x/*"), Err(SeveralStars));
    }

    fn exact() -> Reader {
        Reader::new(ReaderLevel::Exact)
    }

    #[test]
    fn the_benign_items_are_found_and_the_rest_is_planted_or_forged() {
        let items = Items::of("/*/text").unwrap().unwrap();
        let benign = [
            json!({"id": 1, "text": "first"}),
            json!({"id": 2, "text": "planted"}),
            json!({"id": 3, "text": "last"}),
        ];
        // Other content, other ids: the planted item is the one left.
        let read = [
            json!({"id": 7, "text": "first"}),
            json!({"id": 8, "text": "other"}),
            json!({"id": 9, "text": "last"}),
        ];
        let matched = match_items(&items, &read, &benign, 1, exact());
        assert_eq!(matched.planted, Some(1));
        assert!(matched.changes.is_empty());
        // A forged record after the planted one.
        let forged = [
            benign[0].clone(),
            json!({"id": 2, "text": "a"}),
            json!({"id": 2, "text": "forged"}),
            benign[2].clone(),
        ];
        let matched = match_items(&items, &forged, &benign, 1, exact());
        assert_eq!(matched.planted, Some(1));
        assert_eq!(matched.changes, vec![("/2".into(), ItemChange::Forged)]);
        // A benign item altered: lost, and the altered one left over.
        let altered = [
            json!({"id": 1, "text": "FIRST"}),
            benign[1].clone(),
            benign[2].clone(),
        ];
        let matched = match_items(&items, &altered, &benign, 1, exact());
        assert_eq!(
            matched.changes,
            vec![
                ("/0".into(), ItemChange::Lost),
                ("/0".into(), ItemChange::Forged)
            ]
        );
        // ... which a reader that folds case does not see.
        let folding = Reader::new(ReaderLevel::AsciiCaseInsensitive);
        assert!(match_items(&items, &altered, &benign, 1, folding)
            .changes
            .is_empty());
        // A benign item removed, and the items out of their order.
        let removed = [benign[0].clone(), benign[1].clone()];
        let matched = match_items(&items, &removed, &benign, 1, exact());
        assert_eq!(matched.changes, vec![("/2".into(), ItemChange::Lost)]);
        let swapped = [benign[2].clone(), benign[1].clone(), benign[0].clone()];
        let matched = match_items(&items, &swapped, &benign, 1, exact());
        assert!(matched.changes.contains(&("/2".into(), ItemChange::Lost)));
        // No item left: no planted item.
        let none = [benign[0].clone(), benign[2].clone()];
        assert_eq!(
            match_items(&items, &none, &benign, 1, exact()).planted,
            None
        );
    }

    #[test]
    fn only_keeps_the_one_item() {
        let items = Items::of("/e/*").unwrap().unwrap();
        let value = json!({"e": ["a", "b", "c"], "n": 1});
        assert_eq!(items.only(&value, Some(1)), json!({"e": ["b"], "n": 1}));
        assert_eq!(items.only(&value, None), json!({"e": [], "n": 1}));
    }
}
