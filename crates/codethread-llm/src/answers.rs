//! Answers read back: every shape a model's answer arrives in (plain
//! lines, OpenAI chat completions and batch output, Anthropic batch
//! results), keyed by the request's `custom_id`.

use std::path::Path;

use codethread_bench::records::{read_text, split_records, Loaded};
use codethread_bench::BenchError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A model's answer for one instance, as read from a results file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The instance (`custom_id` of the request).
    pub instance_id: String,
    /// The answer text.
    pub content: String,
}

/// Read answers: JSONL (or JSON) lines in any of these shapes:
/// `{custom_id|instance_id, content|answer|text}`; an OpenAI chat completion
/// (`choices[0].message.content`); an OpenAI batch output line
/// (`response.body.choices[0].message.content`); an Anthropic batch result
/// (`result.message.content[*].text`); `content` as a list of `{type: "text", text}`.
///
/// Answers sharing an id: identical repeats are dropped with a warning,
/// differing ones are all refused ([`BenchError::Duplicate`], naming both
/// lines).
pub fn import_answers(
    path: &Path,
    limits: codethread_lang::io::SourceLimits,
) -> Result<Loaded<Answer>, BenchError> {
    let text = read_text(path, limits)?;
    let mut out = Loaded::default();
    let mut rows = Vec::new();
    for r in split_records(path, &text, &["answers", "results"])? {
        let v = match r.value {
            Ok(v) => v,
            Err(e) => {
                out.errors.push(e);
                continue;
            }
        };
        let id = ["custom_id", "instance_id", "id"]
            .iter()
            .find_map(|k| v.get(*k).and_then(Value::as_str))
            .map(str::to_string)
            .or(r.key.clone());
        let Some(id) = id else {
            out.errors.push(BenchError::MissingField {
                path: path.to_path_buf(),
                line: r.line,
                instance_id: "<unknown>".into(),
                field: "custom_id".into(),
            });
            continue;
        };
        if let Some(why) = codethread_bench::ids::id_problem(&id) {
            out.errors.push(BenchError::BadField {
                path: path.to_path_buf(),
                line: r.line,
                instance_id: codethread_bench::ids::label(&id),
                field: "custom_id".into(),
                message: why,
            });
            continue;
        }
        match answer_text(&v) {
            Some(content) => rows.push((
                r.line,
                id.clone(),
                Answer {
                    instance_id: id,
                    content,
                },
            )),
            None => out.errors.push(BenchError::MissingField {
                path: path.to_path_buf(),
                line: r.line,
                instance_id: id,
                field: "content".into(),
            }),
        }
    }
    codethread_bench::records::dedupe(path, "answer", rows, &mut out);
    Ok(out)
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let t: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str).or_else(|| p.as_str()))
                .collect();
            (!t.is_empty()).then(|| t.join(""))
        }
        _ => None,
    }
}

fn answer_text(v: &Value) -> Option<String> {
    let candidates = [
        v.get("content"),
        v.get("answer"),
        v.get("text"),
        v.pointer("/choices/0/message/content"),
        v.pointer("/response/body/choices/0/message/content"),
        v.pointer("/result/message/content"),
        v.pointer("/message/content"),
        v.get("response").filter(|r| r.is_string()),
    ];
    candidates.into_iter().flatten().find_map(text_of)
}
