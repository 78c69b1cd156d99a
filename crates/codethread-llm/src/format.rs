//! The request and result files of existing batch engines, both ways.
//!
//! Requests:
//! * **OpenAI Batch** (read by the OpenAI Batch API and by `vllm run-batch`):
//!   one JSON object per line, `{custom_id, method: "POST", url:
//!   "/v1/chat/completions", body}`, where `body` is a chat-completions
//!   request `{model, messages, max_completion_tokens[, temperature]}`
//!   (`max_completion_tokens`: the field the openai package and vLLM's
//!   `ChatCompletionRequest` prefer, `max_tokens` being deprecated in both;
//!   `temperature` only when the caller sets one).
//! * **Anthropic Message Batches**: `{custom_id, params}`, where `params` is
//!   a Messages API request `{model, max_tokens, system, messages}` (the
//!   system message is a top-level field, not a message; `custom_id` must
//!   match `^[a-zA-Z0-9_-]{1,64}$`). No sampling field: the anthropic
//!   package's `MessageCreateParamsNonStreaming` has none since 1.0, so a
//!   temperature is refused for this format rather than written.
//!
//! Results ([`read_batch_output`]), auto-detected per line:
//! * OpenAI / vLLM batch output: `{id, custom_id, response: {status_code,
//!   request_id, body: <chat completion>}, error: {code, message}}`;
//! * Anthropic results: `{custom_id, result: {type: succeeded | errored |
//!   canceled | expired, message: {content: [{type: "text", text}], ...},
//!   error: {...}}}`;
//! * the plain shapes [`crate::import_answers`] reads
//!   (`{custom_id|instance_id, content|answer|text}`, a bare chat completion).
//!
//! Every line ends as exactly one of: an answer, a per-instance failure
//! (HTTP status, engine error, canceled, expired, no text), or an unreadable
//! line (bad JSON, no id) — none is dropped. Ids that are not expected are
//! listed in [`BatchOutput::unknown`], expected ids without a line in
//! [`BatchOutput::missing`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use codethread_bench::records::{read_text, split_records};
use codethread_bench::BenchError;

use crate::error::{LlmError, RequestLineError, RequestProblem};
use crate::request::{Answer, ChatMessage, LlmRequest};

/// The two batch request formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BatchFormat {
    /// OpenAI Batch API / `vllm run-batch` input lines.
    OpenaiBatch,
    /// Anthropic Message Batches requests.
    AnthropicBatch,
}

impl std::str::FromStr for BatchFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "openai-batch" | "openai" => Ok(BatchFormat::OpenaiBatch),
            "anthropic-batch" | "anthropic" => Ok(BatchFormat::AnthropicBatch),
            o => Err(format!(
                "unknown format {o:?} (openai-batch, anthropic-batch)"
            )),
        }
    }
}

/// Generation parameters written into every request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenParams {
    /// Model name as the engine knows it.
    pub model: String,
    /// Sampling temperature, written only when set (`None`: the field is
    /// left out and the engine's default applies). Only the OpenAI / vLLM
    /// chat schema has it (`[0, 2]`); [`GenParams::check`] refuses it for
    /// Anthropic lines.
    pub temperature: Option<f64>,
    /// Largest answer, in tokens: `max_completion_tokens` in OpenAI / vLLM
    /// bodies, `max_tokens` in Anthropic params (required there).
    pub max_tokens: u32,
}

impl Default for GenParams {
    fn default() -> Self {
        GenParams {
            model: String::new(),
            temperature: None,
            max_tokens: 4096,
        }
    }
}

impl GenParams {
    /// Whether these parameters can be written in `format`: a non-empty
    /// model, `max_tokens` ≥ 1, a temperature (when set) finite and in
    /// `[0, 2]`, and no temperature for Anthropic Message Batches (whose
    /// params have no sampling field). The message names the problem.
    pub fn check(&self, format: BatchFormat) -> Result<(), RequestLineError> {
        if self.model.is_empty() {
            return Err("model: a non-empty name is required".into());
        }
        if self.max_tokens == 0 {
            return Err("max_tokens: must be at least 1".into());
        }
        if let Some(t) = self.temperature {
            if !(t.is_finite() && (0.0..=2.0).contains(&t)) {
                return Err(format!("temperature: {t} is not a number in [0, 2]").into());
            }
            if format == BatchFormat::AnthropicBatch {
                return Err(
                    "temperature: Anthropic Message Batches params have no sampling \
                     fields (MessageCreateParamsNonStreaming of the anthropic package); leave \
                     --temperature out for this format"
                        .into(),
                );
            }
        }
        Ok(())
    }
}

/// The chat-completions request body (`POST /v1/chat/completions`) for
/// `messages`: `{model, messages, max_completion_tokens}`, plus
/// `temperature` when one is set. This exact body is what the online
/// runner sends and hashes.
pub fn openai_chat_body(messages: &[ChatMessage], p: &GenParams) -> Value {
    let mut body = json!({
        "model": p.model,
        "messages": messages,
        "max_completion_tokens": p.max_tokens,
    });
    if let Some(t) = p.temperature.filter(|t| t.is_finite()) {
        body["temperature"] = Value::from(t);
    }
    body
}

/// One OpenAI Batch input line.
pub fn openai_batch_line(req: &LlmRequest, p: &GenParams) -> Value {
    json!({
        "custom_id": req.custom_id,
        "method": "POST",
        "url": "/v1/chat/completions",
        "body": openai_chat_body(&req.messages, p),
    })
}

/// Whether `id` is a valid Anthropic batch `custom_id`
/// (`^[a-zA-Z0-9_-]{1,64}$`).
pub(crate) fn is_anthropic_custom_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// One Anthropic Message Batches request: system messages are joined into
/// `params.system`; the others stay in order. An id Anthropic refuses, or
/// parameters [`GenParams::check`] refuses for this format (a temperature),
/// is an error naming the instance.
pub fn anthropic_batch_line(req: &LlmRequest, p: &GenParams) -> Result<Value, LlmError> {
    if !is_anthropic_custom_id(&req.custom_id) {
        return Err(LlmError::Request {
            custom_id: req.custom_id.clone(),
            problem: RequestProblem::AnthropicId,
        });
    }
    if let Err(e) = p.check(BatchFormat::AnthropicBatch) {
        return Err(LlmError::Request {
            custom_id: req.custom_id.clone(),
            problem: RequestProblem::Params(e),
        });
    }
    let system: Vec<&str> = req
        .messages
        .iter()
        .filter(|m| m.role == "system")
        .map(|m| m.content.as_str())
        .collect();
    let msgs: Vec<&ChatMessage> = req.messages.iter().filter(|m| m.role != "system").collect();
    let mut params = json!({
        "model": p.model,
        "max_tokens": p.max_tokens,
        "messages": msgs,
    });
    if !system.is_empty() {
        params["system"] = Value::from(system.join("\n\n"));
    }
    Ok(json!({"custom_id": req.custom_id, "params": params}))
}

/// One request line in `format`.
pub fn batch_line(format: BatchFormat, req: &LlmRequest, p: &GenParams) -> Result<Value, LlmError> {
    match format {
        BatchFormat::OpenaiBatch => Ok(openai_batch_line(req, p)),
        BatchFormat::AnthropicBatch => anthropic_batch_line(req, p),
    }
}

/// Check a request line against the published schema of its format, field
/// by field (the fields this crate writes, with the types and values the
/// documentation allows); the first problem found is returned. Used by the
/// tests and by anyone who hand-edits a batch file.
pub fn validate_request_line(format: BatchFormat, line: &Value) -> Result<(), RequestLineError> {
    let obj = line.as_object().ok_or("a request line is a JSON object")?;
    let custom_id = obj
        .get("custom_id")
        .and_then(Value::as_str)
        .ok_or("custom_id: a string is required")?;
    match format {
        BatchFormat::OpenaiBatch => {
            only_keys(obj, &["custom_id", "method", "url", "body"])?;
            if obj.get("method").and_then(Value::as_str) != Some("POST") {
                return Err("method: must be \"POST\"".into());
            }
            let url = obj.get("url").and_then(Value::as_str).unwrap_or("");
            if url != "/v1/chat/completions" {
                return Err(format!("url: {url:?} is not /v1/chat/completions").into());
            }
            let body = obj
                .get("body")
                .and_then(Value::as_object)
                .ok_or("body: an object is required")?;
            only_keys(
                body,
                &["model", "messages", "temperature", "max_completion_tokens"],
            )?;
            need_model(body)?;
            need_messages(body, &["system", "user", "assistant", "developer"])?;
            need_number(body, "temperature", 0.0, 2.0, false)?;
            need_number(body, "max_completion_tokens", 1.0, f64::MAX, true)?;
        }
        BatchFormat::AnthropicBatch => {
            if !is_anthropic_custom_id(custom_id) {
                return Err(format!(
                    "custom_id: {custom_id:?} does not match ^[a-zA-Z0-9_-]{{1,64}}$"
                )
                .into());
            }
            only_keys(obj, &["custom_id", "params"])?;
            let p = obj
                .get("params")
                .and_then(Value::as_object)
                .ok_or("params: an object is required")?;
            // No sampling field: MessageCreateParamsNonStreaming (anthropic >= 1.0)
            // has no temperature / top_p / top_k.
            only_keys(p, &["model", "max_tokens", "system", "messages"])?;
            need_model(p)?;
            need_number(p, "max_tokens", 1.0, f64::MAX, true)?;
            if let Some(s) = p.get("system") {
                if !s.is_string() {
                    return Err("params.system: a string is required".into());
                }
            }
            let msgs = need_messages(p, &["user", "assistant"])?;
            if msgs
                .first()
                .and_then(|m| m.get("role"))
                .and_then(Value::as_str)
                != Some("user")
            {
                return Err("params.messages: the first message must be from the user".into());
            }
        }
    }
    Ok(())
}

fn only_keys(obj: &serde_json::Map<String, Value>, allowed: &[&str]) -> Result<(), String> {
    match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(format!("unexpected field {k:?}")),
        None => Ok(()),
    }
}

fn need_model(obj: &serde_json::Map<String, Value>) -> Result<(), String> {
    match obj.get("model").and_then(Value::as_str) {
        Some(m) if !m.is_empty() => Ok(()),
        _ => Err("model: a non-empty string is required".into()),
    }
}

fn need_number(
    obj: &serde_json::Map<String, Value>,
    key: &str,
    lo: f64,
    hi: f64,
    required: bool,
) -> Result<(), String> {
    match obj.get(key) {
        None if !required => Ok(()),
        None => Err(format!("{key}: required")),
        Some(v) => match v.as_f64() {
            Some(x) if (lo..=hi).contains(&x) => {
                if key.starts_with("max_") && v.as_u64().is_none() {
                    return Err(format!("{key}: an integer is required"));
                }
                Ok(())
            }
            _ => Err(format!("{key}: {v} is not a number in [{lo}, {hi}]")),
        },
    }
}

fn need_messages<'a>(
    obj: &'a serde_json::Map<String, Value>,
    roles: &[&str],
) -> Result<&'a Vec<Value>, String> {
    let msgs = obj
        .get("messages")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
        .ok_or("messages: a non-empty array is required")?;
    for (i, m) in msgs.iter().enumerate() {
        let m = m.as_object().ok_or(format!("messages[{i}]: an object"))?;
        only_keys(m, &["role", "content"])?;
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        if !roles.contains(&role) {
            return Err(format!(
                "messages[{i}].role: {role:?} is not one of {roles:?}"
            ));
        }
        if !m.get("content").is_some_and(Value::is_string) {
            return Err(format!("messages[{i}].content: a string is required"));
        }
    }
    Ok(msgs)
}

/// Why one result line gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The instance (`custom_id`).
    pub instance_id: String,
    /// 1-based line of the result file.
    pub line: usize,
    /// `http_<status>`, `error:<code>`, `errored:<type>`, `canceled`,
    /// `expired`, `no_text`.
    pub kind: String,
    /// The engine's message (or what is missing).
    pub message: String,
}

/// A result file read back: one entry per line, none dropped.
#[derive(Debug, Default)]
pub struct BatchOutput {
    /// Answers, in file order.
    pub answers: Vec<Answer>,
    /// Lines of known shape that carry no answer, per instance.
    pub failures: Vec<Failure>,
    /// Lines that cannot be read (bad JSON, no id) and differing duplicates.
    pub errors: Vec<BenchError>,
    /// Notes per instance (a truncated answer: `finish_reason: length` /
    /// `stop_reason: max_tokens`; an identical repeated line).
    pub warnings: Vec<String>,
    /// Ids in the file that are not expected (only with an expected list).
    pub unknown: Vec<String>,
    /// Expected ids with no line at all.
    pub missing: Vec<String>,
}

/// What one result line says.
#[derive(Debug, Clone, PartialEq)]
enum LineResult {
    Text(String, Option<String>),
    Fail(String, String),
}

fn str_at<'a>(v: &'a Value, ptr: &str) -> Option<&'a str> {
    v.pointer(ptr).and_then(Value::as_str)
}

fn content_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let t: Vec<&str> = parts
                .iter()
                .filter(|p| {
                    p.get("type")
                        .and_then(Value::as_str)
                        .is_none_or(|t| t == "text")
                })
                .filter_map(|p| p.get("text").and_then(Value::as_str).or_else(|| p.as_str()))
                .collect();
            (!t.is_empty()).then(|| t.join(""))
        }
        _ => None,
    }
}

/// What a chat-completions response body (`choices[0]`) answers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Completion {
    /// The answer text (`message.content`), with a warning when it was cut
    /// by the token limit (`finish_reason: length`).
    Text(String, Option<String>),
    /// No usable answer although the request succeeded: the model refused
    /// (`message.refusal`) or a content filter stopped it
    /// (`finish_reason: content_filter`): the kind and the engine's words.
    Refused(String, String),
}

/// The answer of a chat-completions response body
/// (`choices[0].message.content`): `None` when there is no text and no
/// refusal.
pub(crate) fn chat_completion(body: &Value) -> Option<Completion> {
    if let Some(r) = str_at(body, "/choices/0/message/refusal").filter(|r| !r.trim().is_empty()) {
        return Some(Completion::Refused("refusal".into(), r.to_string()));
    }
    if str_at(body, "/choices/0/finish_reason") == Some("content_filter") {
        return Some(Completion::Refused(
            "content_filter".into(),
            "finish_reason content_filter: the answer was withheld or cut by a content filter"
                .into(),
        ));
    }
    let text = body
        .pointer("/choices/0/message/content")
        .and_then(content_text)?;
    let warn = (str_at(body, "/choices/0/finish_reason") == Some("length"))
        .then(|| "truncated: finish_reason length".to_string());
    Some(Completion::Text(text, warn))
}

impl From<Completion> for LineResult {
    fn from(c: Completion) -> LineResult {
        match c {
            Completion::Text(t, w) => LineResult::Text(t, w),
            Completion::Refused(kind, message) => LineResult::Fail(kind, message),
        }
    }
}

/// The failure an `error` field of a batch output line describes (see
/// [`classify`]): the code from `code` (or `type`), the message kept.
fn error_result(e: &Value, status: u64) -> LineResult {
    if let Some(text) = e.as_str() {
        let kind = if status != 0 && status != 200 {
            format!("http_{status}")
        } else {
            "error:unknown".to_string()
        };
        return LineResult::Fail(kind, text.to_string());
    }
    let inner = e.get("error").filter(|i| i.is_object()).unwrap_or(e);
    let code = ["code", "type"]
        .iter()
        .find_map(|k| inner.get(*k).filter(|c| !c.is_null()))
        .map(|c| {
            c.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| c.to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let message = inner
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    LineResult::Fail(format!("error:{code}"), message)
}

fn classify(v: &Value) -> LineResult {
    // Anthropic Message Batches result.
    if let Some(r) = v.get("result").filter(|r| r.is_object()) {
        let ty = r.get("type").and_then(Value::as_str).unwrap_or("");
        return match ty {
            "succeeded" if str_at(r, "/message/stop_reason") == Some("refusal") => {
                LineResult::Fail(
                    "refusal".into(),
                    "stop_reason refusal: the model declined to answer".into(),
                )
            }
            "succeeded" => match r.pointer("/message/content").and_then(content_text) {
                Some(t) => {
                    let warn = (str_at(r, "/message/stop_reason") == Some("max_tokens"))
                        .then(|| "truncated: stop_reason max_tokens".to_string());
                    LineResult::Text(t, warn)
                }
                None => LineResult::Fail("no_text".into(), "succeeded without a text block".into()),
            },
            "errored" => {
                let e = r.get("error").unwrap_or(&Value::Null);
                let inner = e.get("error").unwrap_or(e);
                LineResult::Fail(
                    format!(
                        "errored:{}",
                        inner
                            .get("type")
                            .and_then(Value::as_str)
                            .unwrap_or("unknown")
                    ),
                    inner
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                )
            }
            "canceled" | "expired" => LineResult::Fail(ty.into(), format!("request {ty}")),
            other => LineResult::Fail(format!("result:{other}"), "unknown result type".into()),
        };
    }
    // OpenAI / vLLM batch output line. `error` is an object in OpenAI's
    // output (`{code, message}`), a string in `vllm run-batch`'s (the
    // exception text, beside `response.status_code` 400) or vLLM's
    // `ErrorResponse` object (`{error: {message, type, code}}`, or the older
    // flat `{object: "error", message, type, code}`).
    let err = v.get("error").filter(|e| e.is_object() || e.is_string());
    if v.get("response")
        .is_some_and(|r| r.is_object() || r.is_null())
        || err.is_some()
    {
        let resp = v.get("response").unwrap_or(&Value::Null);
        let status = resp.get("status_code").and_then(Value::as_u64).unwrap_or(0);
        if let Some(e) = err {
            return error_result(e, status);
        }
        let body = resp.get("body").unwrap_or(&Value::Null);
        if status != 200 {
            let msg = body
                .pointer("/error/message")
                .or_else(|| body.get("message"))
                .and_then(Value::as_str)
                .or_else(|| body.as_str())
                .unwrap_or("")
                .to_string();
            return LineResult::Fail(format!("http_{status}"), msg);
        }
        return match chat_completion(body) {
            Some(c) => c.into(),
            None => LineResult::Fail(
                "no_text".into(),
                "response body has no choices[0].message.content".into(),
            ),
        };
    }
    if let Some(c) = chat_completion(v) {
        return c.into();
    }
    for k in [
        "/content",
        "/answer",
        "/text",
        "/message/content",
        "/response",
    ] {
        if let Some(t) = v.pointer(k).and_then(content_text) {
            return LineResult::Text(t, None);
        }
    }
    LineResult::Fail("no_text".into(), "no answer text in any known field".into())
}

/// The answer of one line of any shape this crate reads (batch output
/// lines of every engine, chat completions, plain `{content|answer|text}`
/// rows): `Ok((text, warning))`, or `Err((kind, message))` for a line that
/// carries no usable answer (an error, a refusal, a content filter, no
/// text). The one reader behind [`read_batch_output`] and
/// [`crate::import_answers`].
pub(crate) fn answer_of(v: &Value) -> Result<(String, Option<String>), (String, String)> {
    match classify(v) {
        LineResult::Text(t, w) => Ok((t, w)),
        LineResult::Fail(kind, message) => Err((kind, message)),
    }
}

/// Read a result file of any engine (see the module docs). `expected`: the
/// ids that were requested; with it, ids not in it are reported in
/// [`BatchOutput::unknown`] (and not returned as answers) and expected ids
/// with no line in [`BatchOutput::missing`].
///
/// Lines sharing an id: an identical repeat is a warning; differing ones
/// are all refused ([`BenchError::Duplicate`]) — except that one answer and
/// any number of failures for one id keep the answer (a batch retried after
/// an error), with the failures as warnings.
pub fn read_batch_output(
    path: &Path,
    expected: Option<&[String]>,
    limits: codethread_lang::io::SourceLimits,
) -> Result<BatchOutput, BenchError> {
    let text = read_text(path, limits)?;
    parse_batch_output_text(path, &text, expected)
}

/// [`read_batch_output`] on bytes already read (`path` names them in
/// errors and decides JSONL vs JSON); used by the fuzz targets.
pub fn parse_batch_output(
    path: &Path,
    bytes: &[u8],
    expected: Option<&[String]>,
) -> Result<BatchOutput, BenchError> {
    let text = codethread_bench::records::decode_text(bytes.to_vec());
    parse_batch_output_text(path, &text, expected)
}

fn parse_batch_output_text(
    path: &Path,
    text: &str,
    expected: Option<&[String]>,
) -> Result<BatchOutput, BenchError> {
    let mut out = BatchOutput::default();
    let expected: Option<BTreeSet<&str>> = expected.map(|e| e.iter().map(String::as_str).collect());
    let mut by_id: BTreeMap<String, Vec<(usize, LineResult)>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for r in split_records(path, text, &["answers", "results"])? {
        let v = match r.value {
            Ok(v) => v,
            Err(e) => {
                out.errors.push(e);
                continue;
            }
        };
        let id = ["custom_id", "instance_id"]
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
        if let Err(e) = super::check_id(&id) {
            out.errors.push(BenchError::BadField {
                path: path.to_path_buf(),
                line: r.line,
                instance_id: super::printable_id(&id),
                field: "custom_id".into(),
                message: e.to_string(),
            });
            continue;
        }
        if expected.as_ref().is_some_and(|e| !e.contains(id.as_str())) {
            if !out.unknown.contains(&id) {
                out.unknown.push(id);
            }
            continue;
        }
        if !by_id.contains_key(&id) {
            order.push(id.clone());
        }
        by_id.entry(id).or_default().push((r.line, classify(&v)));
    }
    for id in order {
        let Some(rows) = by_id.remove(&id) else {
            continue;
        };
        let texts: Vec<&(usize, LineResult)> = rows
            .iter()
            .filter(|(_, r)| matches!(r, LineResult::Text(..)))
            .collect();
        let distinct_texts: BTreeSet<String> = texts
            .iter()
            .filter_map(|(_, r)| match r {
                LineResult::Text(t, _) => Some(t.clone()),
                LineResult::Fail(..) => None,
            })
            .collect();
        if distinct_texts.len() > 1 {
            out.errors.push(BenchError::Duplicate {
                path: path.to_path_buf(),
                what: "answer",
                id: id.clone(),
                first_line: texts[0].0,
                line: texts[1].0,
            });
            continue;
        }
        if let Some((line, LineResult::Text(t, warn))) = texts.first().map(|x| (x.0, &x.1)) {
            if let Some(w) = warn {
                out.warnings
                    .push(format!("{}:{line}: {id}: {w}", path.display()));
            }
            for (l, r) in &rows {
                match r {
                    LineResult::Fail(kind, _) => out.warnings.push(format!(
                        "{}:{l}: {id}: a failed attempt ({kind}) beside the answer on line {line}",
                        path.display()
                    )),
                    LineResult::Text(..) if *l != line => out.warnings.push(format!(
                        "{}:{l}: answer {id}: identical to line {line}; the repeat is ignored",
                        path.display()
                    )),
                    LineResult::Text(..) => {}
                }
            }
            out.answers.push(Answer {
                instance_id: id,
                content: t.clone(),
            });
            continue;
        }
        // Only failures: each is kept.
        for (line, r) in rows {
            if let LineResult::Fail(kind, message) = r {
                out.failures.push(Failure {
                    instance_id: id.clone(),
                    line,
                    kind,
                    message,
                });
            }
        }
    }
    if let Some(e) = expected {
        let seen: BTreeSet<&str> = out
            .answers
            .iter()
            .map(|a| a.instance_id.as_str())
            .chain(out.failures.iter().map(|f| f.instance_id.as_str()))
            .collect();
        let dup: BTreeSet<String> = out
            .errors
            .iter()
            .filter_map(|e| match e {
                BenchError::Duplicate { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect();
        out.missing = e
            .into_iter()
            .filter(|id| !seen.contains(id) && !dup.contains(*id))
            .map(str::to_string)
            .collect();
    }
    Ok(out)
}

/// One OpenAI-batch-output-shaped line for an answered request (what the
/// online runner writes, so that [`read_batch_output`] reads it back).
pub fn output_line_ok(custom_id: &str, request_id: &str, body: &Value) -> Value {
    json!({
        "id": format!("batch_req_{request_id}"),
        "custom_id": custom_id,
        "response": {"status_code": 200, "request_id": request_id, "body": body},
        "error": null,
    })
}

/// One OpenAI-batch-output-shaped line for a request that got no answer.
pub(crate) fn output_line_error(custom_id: &str, code: &str, message: &str) -> Value {
    json!({
        "id": format!("batch_req_{custom_id}"),
        "custom_id": custom_id,
        "response": null,
        "error": {"code": code, "message": message},
    })
}
