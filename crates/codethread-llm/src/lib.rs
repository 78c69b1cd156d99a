//! # codethread-llm
//!
//! The LLM stages of codethread run for real, for any caller (the task
//! statements of codethread-chain, the judges of codethread-analysis):
//! provider-neutral chat requests, request files of existing batch engines,
//! their result files read back, and an online runner for any
//! OpenAI-compatible `/v1/chat/completions` endpoint with a cache.
//!
//! - Requests ([`LlmRequest`], [`load_requests`]): one JSON line
//!   `{custom_id, messages, metadata}` per request.
//! - Formats ([`batch_line`], [`read_batch_output`]): OpenAI Batch (also
//!   `vllm run-batch`) and Anthropic Message Batches request lines, their
//!   validation against the published schemas, and one reader for every
//!   engine's output file (per-line errors kept per request).
//! - Answers ([`import_answers`]): every shape an answer arrives in.
//! - The runner ([`run`], feature `http`): bounded concurrency, retries with
//!   backoff and jitter, a timeout, the API key from an environment
//!   variable, progress through a callback.
//! - The [`Cache`]: one atomically written file per answered request, keyed
//!   by the SHA-256 of the exact request body.
//!
//! ```
//! use codethread_llm::{batch_line, BatchFormat, ChatMessage, GenParams, LlmRequest};
//!
//! let req = LlmRequest {
//!     custom_id: "o__r-1".into(),
//!     messages: vec![ChatMessage { role: "user".into(), content: "Describe f.".into() }],
//!     metadata: serde_json::json!({}),
//! };
//! let params = GenParams { model: "m".into(), ..GenParams::default() };
//! let line = batch_line(BatchFormat::OpenaiBatch, &req, &params).unwrap();
//! assert_eq!(line["custom_id"], "o__r-1");
//! assert_eq!(line["body"]["messages"][0]["content"], "Describe f.");
//! ```

mod answers;
mod cache;
mod error;
mod format;
mod request;
mod runner;

pub use answers::import_answers;
pub use error::{LlmError, RequestLineError, RequestProblem};
pub use request::{Answer, ChatMessage, LlmRequest};

// The answer cache.
pub use cache::{Cache, CacheRecord};

// Batch-engine request lines and result files.
pub use format::{
    anthropic_batch_line, batch_line, openai_batch_line, openai_chat_body, output_line_ok,
    parse_batch_output, read_batch_output, validate_request_line, BatchFormat, BatchOutput,
    Failure, GenParams,
};

// The online runner for OpenAI-compatible endpoints.
#[cfg(feature = "http")]
pub use runner::run;
pub use runner::{
    decode_response, json_depth, output_lines, seconds_option, Attempt, Job, JobOutcome, Progress,
    RunSummary, RunnerError, RunnerOptions, MAX_ANSWER_DEPTH, MAX_WAIT,
};

use codethread_bench::records::Loaded;
use codethread_bench::BenchError;

/// The runner's jobs for `requests` (chat-completions bodies with `p`).
pub fn jobs(requests: &[LlmRequest], p: &format::GenParams) -> Vec<runner::Job> {
    requests
        .iter()
        .map(|r| runner::Job {
            custom_id: r.custom_id.clone(),
            body: format::openai_chat_body(&r.messages, p),
        })
        .collect()
}

/// Whether `id` can be a request / answer id: non-empty and free of
/// control characters (C0, DEL, C1: a `\n`, `\r` or ESC cannot travel in
/// an HTTP header and would forge lines or terminal escapes where the id is
/// printed). Request ids name no file (the cache is keyed by the body's
/// hash), so `/` is allowed here, unlike the instance ids of
/// the instance-id rule. The message names the first offending character.
pub fn check_id(id: &str) -> Result<(), IdError> {
    if id.is_empty() {
        return Err(IdError::Empty);
    }
    match id.chars().find(|c| c.is_control()) {
        Some(c) => Err(IdError::Control { code: u32::from(c) }),
        None => Ok(()),
    }
}

/// Why a string cannot be a request / answer id ([`check_id`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// The id is empty.
    #[error("custom_id is empty")]
    Empty,
    /// The id contains a control character (its code point).
    #[error("custom_id contains the control character U+{code:04X}")]
    Control {
        /// The first offending character's code point.
        code: u32,
    },
}

/// `id` safe to print on a terminal or in a log line: control characters
/// (and `\`) escaped as `\n`, `\r`, `\t`, `\\` or `\u{..}`; every other
/// character as is.
pub fn printable_id(id: &str) -> String {
    if !id.chars().any(|c| c.is_control() || c == '\\') {
        return id.to_string();
    }
    let mut out = String::with_capacity(id.len() + 8);
    for c in id.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// Read provider-neutral requests (`{custom_id, messages, metadata}` JSON
/// lines, as `chain requests` and `analyze judge ... export` write them):
/// every readable request, one error per bad line (including an id with a
/// control character, see [`check_id`]), differing requests sharing a
/// `custom_id` refused.
pub fn load_requests(
    path: &std::path::Path,
    limits: codethread_lang::io::SourceLimits,
) -> Result<Loaded<LlmRequest>, BenchError> {
    let text = codethread_bench::records::read_text(path, limits)?;
    parse_requests_text(path, &text)
}

/// [`load_requests`] on bytes already read (`path` names them in errors);
/// used by the fuzz targets.
pub fn parse_requests(
    path: &std::path::Path,
    bytes: &[u8],
) -> Result<Loaded<LlmRequest>, BenchError> {
    parse_requests_text(
        path,
        &codethread_bench::records::decode_text(bytes.to_vec()),
    )
}

fn parse_requests_text(
    path: &std::path::Path,
    text: &str,
) -> Result<Loaded<LlmRequest>, BenchError> {
    let mut out = Loaded::default();
    let mut rows = Vec::new();
    for r in codethread_bench::records::split_records(path, text, &["requests"])? {
        match r.value {
            Err(e) => out.errors.push(e),
            Ok(v) => match serde_json::from_value::<LlmRequest>(v) {
                // Request ids travel in headers and are printed.
                Ok(req) if check_id(&req.custom_id).is_err() => {
                    out.errors.push(BenchError::BadField {
                        path: path.to_path_buf(),
                        line: r.line,
                        instance_id: codethread_bench::ids::label(&req.custom_id),
                        field: "custom_id".into(),
                        message: check_id(&req.custom_id)
                            .err()
                            .map(|e| e.to_string())
                            .unwrap_or_default(),
                    })
                }
                Ok(req) => rows.push((r.line, req.custom_id.clone(), req)),
                Err(e) => out.errors.push(BenchError::BadField {
                    path: path.to_path_buf(),
                    line: r.line,
                    instance_id: "<request>".into(),
                    field: "custom_id/messages".into(),
                    message: e.to_string(),
                }),
            },
        }
    }
    codethread_bench::records::dedupe(path, "request", rows, &mut out);
    Ok(out)
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
