//! Reading JSON / JSONL files as a list of records, each with the line it
//! starts on, so that errors can name the line. A malformed JSONL line
//! becomes an error record; the other lines are still read.

use std::path::Path;

use serde_json::value::RawValue;
use serde_json::Value;

use crate::error::BenchError;

/// One record of a JSON / JSONL file.
#[derive(Debug)]
pub struct Record {
    /// 1-based line where the record starts.
    pub line: usize,
    /// The key when the file is a JSON object mapping ids to records.
    pub key: Option<String>,
    /// The record, or why it could not be read.
    pub value: Result<Value, BenchError>,
}

/// The outcome of loading a file: every good row, and one error per bad row.
#[derive(Debug)]
pub struct Loaded<T> {
    /// Rows read.
    pub items: Vec<T>,
    /// Rows that could not be read, each naming file, line and field.
    pub errors: Vec<BenchError>,
    /// Rows that were read but deserve a word (e.g. an identical repeat of
    /// an earlier row, ignored), each naming file and line.
    pub warnings: Vec<String>,
}

impl<T> Default for Loaded<T> {
    fn default() -> Self {
        Loaded {
            items: Vec::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// The text of a file, read with `codethread_lang::io::read_regular` (regular files
/// under `limits` only; see [`decode_text`]).
pub fn read_text(
    path: &Path,
    limits: codethread_lang::io::SourceLimits,
) -> Result<String, BenchError> {
    Ok(decode_text(crate::files::read(path, limits)?))
}

/// Bytes of a JSON / JSONL / log file as text, decoded lossily: JSON is
/// UTF-8 by definition, and a stray non-UTF-8 byte in a problem statement
/// must not lose the whole file. Patches that are not UTF-8 travel in
/// `*_b64` fields ([`crate::carry`]), which are ASCII.
pub fn decode_text(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Keep one row per id: an identical repeat is dropped with a warning; rows
/// that share an id but differ are all refused, with a
/// [`BenchError::Duplicate`] naming both lines. `rows` are `(line, id, row)`
/// in file order; the result keeps that order.
pub fn dedupe<T: PartialEq>(
    path: &Path,
    what: &'static str,
    rows: Vec<(usize, String, T)>,
    out: &mut Loaded<T>,
) {
    let mut first: std::collections::HashMap<String, (usize, usize)> =
        std::collections::HashMap::new();
    let mut kept: Vec<Option<T>> = Vec::new();
    for (line, id, item) in rows {
        match first.get(&id) {
            None => {
                first.insert(id, (kept.len(), line));
                kept.push(Some(item));
            }
            Some(&(idx, first_line)) => match &kept[idx] {
                Some(k) if *k == item => out.warnings.push(format!(
                    "{}:{line}: {what} {id}: identical to line {first_line}; the repeat is ignored",
                    path.display()
                )),
                _ => {
                    kept[idx] = None;
                    out.errors.push(BenchError::Duplicate {
                        path: path.to_path_buf(),
                        what,
                        id,
                        first_line,
                        line,
                    });
                }
            },
        }
    }
    out.items.extend(kept.into_iter().flatten());
}

/// Whether `text` looks like JSON Lines rather than one JSON document.
fn is_jsonl(path: &Path, text: &str) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some("jsonl") | Some("ndjson") => true,
        Some("json") => false,
        _ => serde_json::from_str::<&RawValue>(text).is_err(),
    }
}

/// Split a JSON / JSONL text into records.
///
/// * JSONL: one record per non-blank line.
/// * A JSON array: one record per element.
/// * A JSON object with a `wrapper` key (e.g. `instances`, `predictions`)
///   holding an array or object: its records (other keys are metadata).
/// * A JSON object with a string `instance_id`: that one record.
/// * Any other JSON object: one record per entry, `key` = the entry's key.
pub fn split_records(
    path: &Path,
    text: &str,
    wrappers: &[&str],
) -> Result<Vec<Record>, BenchError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if is_jsonl(path, text) {
        let mut out = Vec::new();
        for (i, line) in text.split('\n').enumerate() {
            let l = line.trim();
            if l.is_empty() {
                continue;
            }
            out.push(Record {
                line: i + 1,
                key: None,
                value: serde_json::from_str::<Value>(l).map_err(|e| BenchError::json(path, i, &e)),
            });
        }
        return Ok(out);
    }
    let lines = LineIndex::new(text);
    let root: &RawValue = serde_json::from_str(text).map_err(|e| BenchError::json(path, 0, &e))?;
    let mut node = root;
    loop {
        let s = node.get().trim_start();
        if s.starts_with('[') {
            let items: Vec<&RawValue> =
                serde_json::from_str(node.get()).map_err(|e| BenchError::json(path, 0, &e))?;
            return Ok(items
                .into_iter()
                .map(|r| Record {
                    line: lines.line_of(text, r.get()),
                    key: None,
                    value: serde_json::from_str(r.get()).map_err(|e| BenchError::json(path, 0, &e)),
                })
                .collect());
        }
        if s.starts_with('{') {
            let entries: Vec<(String, &RawValue)> =
                serde_json::from_str::<std::collections::HashMap<String, &RawValue>>(node.get())
                    .map_err(|e| BenchError::json(path, 0, &e))?
                    .into_iter()
                    .collect();
            if let Some((_, inner)) = entries.iter().find(|(k, v)| {
                wrappers.contains(&k.as_str()) && {
                    let t = v.get().trim_start();
                    t.starts_with('[') || t.starts_with('{')
                }
            }) {
                node = inner;
                continue;
            }
            // A single row (it names its own instance): one record.
            if entries
                .iter()
                .any(|(k, v)| k == "instance_id" && v.get().trim_start().starts_with('"'))
            {
                return Ok(vec![Record {
                    line: lines.line_of(text, node.get()),
                    key: None,
                    value: serde_json::from_str(node.get())
                        .map_err(|e| BenchError::json(path, 0, &e)),
                }]);
            }
            let mut entries = entries;
            entries.sort_by_key(|(_, r)| r.get().as_ptr() as usize);
            return Ok(entries
                .into_iter()
                .map(|(k, r)| Record {
                    line: lines.line_of(text, r.get()),
                    key: Some(k),
                    value: serde_json::from_str(r.get()).map_err(|e| BenchError::json(path, 0, &e)),
                })
                .collect());
        }
        return Err(BenchError::Format {
            path: path.to_path_buf(),
            message: "expected a JSON array, a JSON object or JSON Lines".into(),
        });
    }
}

/// Maps byte offsets to 1-based line numbers.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// Line of `sub`, which must be a slice of `text`.
    fn line_of(&self, text: &str, sub: &str) -> usize {
        let off = (sub.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
        match self.starts.binary_search(&off) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonl_bad_line_does_not_stop() {
        let t = "{\"a\":1}\n\nnot json\n{\"a\":2}\n";
        let r = split_records(Path::new("x.jsonl"), t, &[])
            .ok()
            .unwrap_or_default();
        assert_eq!(r.len(), 3);
        assert_eq!(r[1].line, 3);
        assert!(matches!(r[1].value, Err(BenchError::Json { line: 3, .. })));
        assert_eq!(r[2].line, 4);
    }

    #[test]
    fn json_array_and_object_lines() {
        let t = "[\n {\"a\":1},\n {\"a\":2}\n]";
        let r = split_records(Path::new("x.json"), t, &[])
            .ok()
            .unwrap_or_default();
        assert_eq!(r.iter().map(|r| r.line).collect::<Vec<_>>(), vec![2, 3]);
        let t = "{\"note\": \"x\",\n \"instances\": {\n  \"i1\": {\"a\":1},\n  \"i2\": {\"a\":2}}}";
        let r = split_records(Path::new("x.json"), t, &["instances"])
            .ok()
            .unwrap_or_default();
        assert_eq!(
            r.iter()
                .map(|r| (r.line, r.key.clone().unwrap_or_default()))
                .collect::<Vec<_>>(),
            vec![(3, "i1".to_string()), (4, "i2".to_string())]
        );
    }
}
