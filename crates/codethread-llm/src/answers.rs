//! Answers read back: every shape a model's answer arrives in (plain
//! lines, OpenAI chat completions and batch output, Anthropic batch
//! results), keyed by the request's `custom_id`.

use std::path::Path;

use codethread_bench::records::{read_text, split_records, Loaded};
use codethread_bench::BenchError;
use serde_json::Value;

pub use crate::request::Answer;

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
        match crate::format::answer_of(&v) {
            Ok((content, warning)) => {
                if let Some(w) = warning {
                    out.warnings
                        .push(format!("{}:{}: {id}: {w}", path.display(), r.line));
                }
                rows.push((
                    r.line,
                    id.clone(),
                    Answer {
                        instance_id: id,
                        content,
                    },
                ))
            }
            // No usable answer: an engine error, a refusal, a content
            // filter, no text at all. Never a statement.
            Err((kind, message)) => out.errors.push(BenchError::BadField {
                path: path.to_path_buf(),
                line: r.line,
                instance_id: id,
                field: "content".into(),
                message: format!("no answer ({kind}): {message}"),
            }),
        }
    }
    codethread_bench::records::dedupe(path, "answer", rows, &mut out);
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use serde_json::json;

    /// Answers in every provider shape; a line without a usable answer (an
    /// engine error, a refusal, a content filter) is an error naming its
    /// line and kind, never a statement (issue 31).
    #[test]
    fn answers_in_provider_shapes_and_refusals() {
        let dir = codethread_lang::io::create_temp_dir_in(&std::env::temp_dir(), "llm-answers")
            .expect("temp dir");
        let p = dir.join("a.jsonl");
        let lines = [
            json!({"custom_id": "a", "response": {"status_code": 200, "body": {"choices": [{"message": {"role": "assistant", "content": "A"}}]}}}),
            json!({"custom_id": "b", "result": {"type": "succeeded", "message": {"content": [{"type": "text", "text": "B"}]}}}),
            json!({"instance_id": "c", "content": "C"}),
            json!({"custom_id": "d", "result": {"type": "errored"}}),
            json!({"custom_id": "e", "response": {"status_code": 200, "body": {"choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}}]}}}),
            json!({"custom_id": "f", "response": {"status_code": 200, "body": {"choices": [{"finish_reason": "content_filter", "message": {"role": "assistant", "content": "partial"}}]}}}),
            json!({"custom_id": "g", "result": {"type": "succeeded", "message": {"stop_reason": "refusal", "content": [{"type": "text", "text": "No."}]}}}),
            json!({"custom_id": "h", "choices": [{"finish_reason": "length", "message": {"content": "cut"}}]}),
        ];
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&p, text).expect("write");
        let a = crate::import_answers(&p, Default::default()).expect("import");
        assert_eq!(
            a.items
                .iter()
                .map(|x| (x.instance_id.as_str(), x.content.as_str()))
                .collect::<Vec<_>>(),
            vec![("a", "A"), ("b", "B"), ("c", "C"), ("h", "cut")]
        );
        let errors: Vec<String> = a.errors.iter().map(ToString::to_string).collect();
        for (line, id, kind) in [
            (4, "d", "errored"),
            (5, "e", "refusal"),
            (6, "f", "content_filter"),
            (7, "g", "refusal"),
        ] {
            assert!(
                errors
                    .iter()
                    .any(|e| e.contains(&format!(":{line}: instance {id}:"))
                        && e.contains(&format!("no answer ({kind}"))),
                "{line} {id} {kind}: {errors:?}"
            );
        }
        assert!(
            a.warnings.iter().any(|w| w.contains("h: truncated")),
            "{:?}",
            a.warnings
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
