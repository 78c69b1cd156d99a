//! The online runner: sends chat-completions requests to any
//! OpenAI-compatible endpoint (vLLM, SGLang, a LiteLLM gateway, OpenAI)
//! with
//! * bounded concurrency: `concurrency` worker threads, each with one
//!   request in flight;
//! * retries with exponential backoff and full jitter on 429 (honouring a
//!   `Retry-After` of seconds or an HTTP date), 408, 5xx, timeouts, connection errors and
//!   answers that cannot be read (malformed JSON, no text, a `custom_id`
//!   echoed by the engine that is not the request's);
//! * a per-request timeout (the whole exchange);
//! * the on-disk [`Cache`] keyed by the SHA-256 of the exact body bytes: a
//!   re-run sends only what is not answered yet, and a kill loses at most
//!   the requests in flight (each answer is written atomically as it
//!   arrives);
//! * the API key read from the environment variable the caller names,
//!   sent only in the `Authorization` header, never stored or put in an
//!   error message: an answer that contains the key anywhere (an endpoint
//!   echoing the header) is refused (`key_echoed`, not cached), and error
//!   text is redacted before it is cut;
//! * no redirects: a 3xx answer is a permanent error (`http_3xx`), never
//!   followed and never cached;
//! * numbers from the network and the options bounded: a `Retry-After` of
//!   any size is capped at `retry_after_max`, option durations outside
//!   their range are a [`RunnerError::BadOption`]; an answer nested deeper
//!   than [`MAX_ANSWER_DEPTH`] is refused (`too_deep`), so that whatever is
//!   stored can be read back (cache records and `output.jsonl` lines add
//!   two levels, serde_json reads 128);
//! * ids with control characters are not sent (`bad_id`, see
//!   [`super::check_id`]).
//!
//! The library never prints: progress goes to a callback, called on the
//! caller's thread.
//!
//! [`run`] needs the crate's `http` feature (on by default); without it the
//! job, option, decoding and output types stay, so batch files and imports
//! work with no HTTP client built.
#![cfg_attr(not(feature = "http"), allow(dead_code, unused_imports))]

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cache::{request_key, Cache, CacheRecord};
use super::format::{chat_completion, Completion};
use codethread_bench::BenchError;

use crate::error::{LlmError, RequestProblem};

/// One request to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// The instance (or judge item) the answer belongs to.
    pub custom_id: String,
    /// The chat-completions body (see `openai_chat_body`).
    pub body: Value,
}

/// Runner settings.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RunnerOptions {
    /// The endpoint: a base URL such as `http://127.0.0.1:8000/v1` (the
    /// runner appends `/chat/completions`) or the full
    /// `.../chat/completions` URL.
    pub endpoint: String,
    /// Worker threads, i.e. requests in flight at most (at least 1).
    pub concurrency: usize,
    /// Timeout of one HTTP exchange (connect, send, whole answer).
    pub timeout: Duration,
    /// Attempts per request before it is given up (at least 1).
    pub max_attempts: u32,
    /// First backoff; attempt `k` waits a random time in
    /// `[d/2, d]` with `d = min(backoff_base * 2^(k-1), backoff_max)`.
    pub backoff_base: Duration,
    /// Largest backoff.
    pub backoff_max: Duration,
    /// Largest `Retry-After` honoured (a longer one is cut to this).
    pub retry_after_max: Duration,
    /// Name of the environment variable holding the API key (sent as
    /// `Authorization: Bearer <key>`); `None`: no key.
    pub api_key_env: Option<String>,
    /// Stop after this many HTTP attempts (for tests and budget limits);
    /// requests not started are reported as [`JobOutcome::NotSent`].
    pub max_requests: Option<usize>,
}

impl RunnerOptions {
    /// Sets [`RunnerOptions::endpoint`].
    pub fn endpoint(mut self, endpoint: String) -> Self {
        self.endpoint = endpoint;
        self
    }

    /// Sets [`RunnerOptions::concurrency`].
    pub fn concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency;
        self
    }

    /// Sets [`RunnerOptions::timeout`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets [`RunnerOptions::max_attempts`].
    pub fn max_attempts(mut self, max_attempts: u32) -> Self {
        self.max_attempts = max_attempts;
        self
    }

    /// Sets [`RunnerOptions::backoff_base`].
    pub fn backoff_base(mut self, backoff_base: Duration) -> Self {
        self.backoff_base = backoff_base;
        self
    }

    /// Sets [`RunnerOptions::backoff_max`].
    pub fn backoff_max(mut self, backoff_max: Duration) -> Self {
        self.backoff_max = backoff_max;
        self
    }

    /// Sets [`RunnerOptions::retry_after_max`].
    pub fn retry_after_max(mut self, retry_after_max: Duration) -> Self {
        self.retry_after_max = retry_after_max;
        self
    }

    /// Sets [`RunnerOptions::api_key_env`].
    pub fn api_key_env(mut self, api_key_env: Option<String>) -> Self {
        self.api_key_env = api_key_env;
        self
    }

    /// Sets [`RunnerOptions::max_requests`].
    pub fn max_requests(mut self, max_requests: Option<usize>) -> Self {
        self.max_requests = max_requests;
        self
    }
}

impl Default for RunnerOptions {
    fn default() -> Self {
        RunnerOptions {
            endpoint: String::new(),
            concurrency: 8,
            timeout: Duration::from_secs(600),
            max_attempts: 6,
            backoff_base: Duration::from_millis(500),
            backoff_max: Duration::from_secs(60),
            retry_after_max: Duration::from_secs(300),
            api_key_env: None,
            max_requests: None,
        }
    }
}

/// What became of one job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum JobOutcome {
    /// Answered by an earlier run (from the cache), or by this run for an
    /// earlier job with a byte-identical body; nothing sent for it.
    Cached,
    /// Answered now.
    Answered {
        /// HTTP attempts made.
        attempts: u32,
    },
    /// Given up: a permanent error (e.g. HTTP 400/401/404) or the attempts
    /// ran out.
    Failed {
        /// HTTP attempts made.
        attempts: u32,
        /// `http_<status>`, `timeout`, `connection`, `malformed`,
        /// `wrong_custom_id`, `cache`.
        code: String,
        /// What happened (never the API key).
        message: String,
    },
    /// Not sent: the run stopped at `max_requests`.
    NotSent,
}

/// A progress report, given to the callback on the caller's thread.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// A job is finished (`done` of `total`).
    Done {
        /// Jobs finished so far.
        done: usize,
        /// All jobs.
        total: usize,
        /// The job.
        custom_id: String,
        /// Its outcome.
        outcome: JobOutcome,
    },
    /// An attempt failed and will be retried after `wait`.
    Retry {
        /// The job.
        custom_id: String,
        /// The attempt that failed (1-based).
        attempt: u32,
        /// The wait before the next attempt.
        wait: Duration,
        /// Why (same codes as [`JobOutcome::Failed`]).
        reason: String,
    },
}

/// The result of a run: one outcome per job, in job order.
#[derive(Debug, Clone, Default)]
pub struct RunSummary {
    /// `(custom_id, outcome)` per job.
    pub outcomes: Vec<(String, JobOutcome)>,
    /// HTTP attempts made by this run.
    pub http_requests: usize,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl RunSummary {
    /// Jobs with each outcome: `(cached, answered, failed, not_sent)`.
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let mut c = (0, 0, 0, 0);
        for (_, o) in &self.outcomes {
            match o {
                JobOutcome::Cached => c.0 += 1,
                JobOutcome::Answered { .. } => c.1 += 1,
                JobOutcome::Failed { .. } => c.2 += 1,
                JobOutcome::NotSent => c.3 += 1,
            }
        }
        c
    }
}

/// The deepest nesting of arrays and objects accepted in an answer body.
/// Real chat completions nest about 6 levels; the reader of the run's own
/// files (serde_json, 128 levels) must read the record (one level more)
/// and the `output.jsonl` line (two more) back.
pub const MAX_ANSWER_DEPTH: usize = 64;

/// The longest `timeout`, `backoff_max` and `retry_after_max` accepted
/// (one week; a longer wait is a typo or a hostile value).
pub const MAX_WAIT: Duration = Duration::from_secs(7 * 24 * 3600);

/// The most worker threads.
pub(crate) const MAX_CONCURRENCY: usize = 1024;

/// Errors that stop a run before it starts.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// An option is out of its range (named, with the range).
    #[error("option {0}")]
    BadOption(String),
    /// The named API-key variable is not set (or empty, or not Unicode).
    #[error("the API key variable {0} is not set")]
    MissingKey(String),
    /// Two jobs share a `custom_id` with different bodies.
    #[error("custom_id {0} appears twice with different requests")]
    DuplicateId(String),
    /// The endpoint is not an http(s) URL.
    #[error("endpoint {0:?} is not an http:// or https:// URL")]
    BadEndpoint(String),
    /// The cache cannot be used.
    #[error(transparent)]
    Cache(#[from] LlmError),
}

impl From<BenchError> for RunnerError {
    fn from(e: BenchError) -> Self {
        RunnerError::Cache(e.into())
    }
}

/// A duration option given in seconds (a command-line flag): finite, above
/// zero and at most [`MAX_WAIT`]; anything else (`nan`, `inf`, `-5`,
/// `1e30`) is a [`RunnerError::BadOption`] naming the option.
pub fn seconds_option(name: &str, secs: f64) -> Result<Duration, RunnerError> {
    if secs.is_finite() && secs > 0.0 && secs <= MAX_WAIT.as_secs_f64() {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(RunnerError::BadOption(format!(
            "{name}: {secs} is not a number of seconds in (0, {}]",
            MAX_WAIT.as_secs()
        )))
    }
}

fn check_options(opts: &RunnerOptions) -> Result<(), RunnerError> {
    for (name, d) in [
        ("timeout", opts.timeout),
        ("backoff_base", opts.backoff_base),
        ("backoff_max", opts.backoff_max),
        ("retry_after_max", opts.retry_after_max),
    ] {
        if d > MAX_WAIT || (name == "timeout" && d.is_zero()) {
            return Err(RunnerError::BadOption(format!(
                "{name}: {d:?} is not in (0, {MAX_WAIT:?}]"
            )));
        }
    }
    if opts.concurrency > MAX_CONCURRENCY {
        return Err(RunnerError::BadOption(format!(
            "concurrency: {} is above {MAX_CONCURRENCY}",
            opts.concurrency
        )));
    }
    Ok(())
}

/// The URL requests go to.
pub(crate) fn completions_url(endpoint: &str) -> String {
    let e = endpoint.trim_end_matches('/');
    if e.ends_with("/chat/completions") {
        e.to_string()
    } else {
        format!("{e}/chat/completions")
    }
}

/// A small xorshift generator for jitter (no need for a cryptographic one).
struct Jitter(u64);

impl Jitter {
    fn new(seed: u64) -> Jitter {
        Jitter(seed | 1)
    }
    fn unit(&mut self) -> f64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The backoff before attempt `attempt + 1` (full jitter in `[d/2, d]`).
fn backoff(opts: &RunnerOptions, attempt: u32, rng: &mut Jitter) -> Duration {
    let exp = 2f64.powi(attempt.saturating_sub(1).min(30) as i32);
    // In seconds, bounded before it becomes a Duration (which panics on
    // overflow): both options are at most MAX_WAIT (checked by `run`).
    let d = (opts.backoff_base.as_secs_f64() * exp).min(opts.backoff_max.as_secs_f64());
    let d = d.clamp(0.0, MAX_WAIT.as_secs_f64()) * (0.5 + 0.5 * rng.unit());
    Duration::try_from_secs_f64(d).unwrap_or(MAX_WAIT)
}

/// `Retry-After`: delay seconds, or an HTTP date (RFC 9110 IMF-fixdate,
/// `Sun, 06 Nov 1994 08:49:37 GMT`) turned into the time left from now (0
/// when it has passed). Anything else (`nan`, `-5`, text) is ignored: the
/// backoff is used. A delay of any size is returned capped at [`MAX_WAIT`]
/// (the runner then cuts it to `retry_after_max`).
fn retry_after(v: Option<&str>) -> Option<Duration> {
    retry_after_at(v, std::time::SystemTime::now())
}

/// [`retry_after`] relative to `now`.
fn retry_after_at(v: Option<&str>, now: std::time::SystemTime) -> Option<Duration> {
    let s = v?.trim();
    if let Some(d) = s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0) {
        return Some(Duration::from_secs_f64(d.min(MAX_WAIT.as_secs_f64())));
    }
    let at = http_date(s)?;
    let now = now.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    Some(Duration::from_secs(at.saturating_sub(now)).min(MAX_WAIT))
}

/// Seconds since the Unix epoch of an IMF-fixdate (`Sun, 06 Nov 1994
/// 08:49:37 GMT`); `None` for any other form.
fn http_date(s: &str) -> Option<u64> {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (_, rest) = s.split_once(", ")?;
    let parts: Vec<&str> = rest.split(' ').collect();
    let [day, month, year, time, "GMT"] = parts.as_slice() else {
        return None;
    };
    let day: u64 = day.parse().ok().filter(|d| (1..=31).contains(d))?;
    let month = MONTHS.iter().position(|m| m == month)? as u64 + 1;
    let year: u64 = year.parse().ok().filter(|y| (1970..=9999).contains(y))?;
    let hms: Vec<u64> = time
        .split(':')
        .map(|x| x.parse().ok())
        .collect::<Option<Vec<u64>>>()?;
    let [h, m, sec] = hms.as_slice() else {
        return None;
    };
    if *h > 23 || *m > 59 || *sec > 60 {
        return None;
    }
    // Days from the civil date (proleptic Gregorian), Howard Hinnant's rule.
    let (y, mo) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y / 400;
    let yoe = y - era * 400;
    let doy = (153 * mo + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = (era * 146_097 + doe).checked_sub(719_468)?;
    Some(days * 86_400 + h * 3_600 + m * 60 + sec)
}

/// What one attempt gave (see [`decode_response`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Attempt {
    /// An answer to store.
    Ok {
        /// `choices[0].message.content`.
        content: String,
        /// The whole response body.
        body: Value,
    },
    /// A failure worth another attempt.
    Retry {
        /// `http_<status>`, `malformed`, `wrong_custom_id`, `timeout`, `connection`.
        code: String,
        /// What happened (redacted, at most 300 bytes).
        message: String,
        /// The `Retry-After` delay, when the endpoint gave one.
        wait: Option<Duration>,
    },
    /// A permanent failure.
    Fatal {
        /// `http_<status>`, `too_deep`, `key_echoed`, `request`.
        code: String,
        /// What happened (redacted, at most 300 bytes).
        message: String,
    },
}

/// Keys this short also occur in ordinary text by chance: a message that
/// contains one is withheld whole instead of being cut to pieces.
const SHORT_KEY: usize = 8;

/// Remove the key from a text an endpoint sent back (an error body may
/// quote the `Authorization` header it refused), whatever its length: the
/// exact key bytes are replaced wherever they occur; for a key shorter than
/// [`SHORT_KEY`] bytes the whole message is withheld (replacing a 2-byte
/// key would destroy the text without protecting anything more).
fn redact(text: String, key: Option<&str>) -> String {
    match key {
        Some(k) if !k.is_empty() && text.contains(k) => {
            if k.len() >= SHORT_KEY {
                text.replace(k, "<redacted>")
            } else {
                format!(
                    "<message withheld: its {} bytes contain the API key>",
                    text.len()
                )
            }
        }
        _ => text,
    }
}

/// Whether the key occurs in `text` or in any string (or object key) of
/// `v` after JSON unescaping (`\u0073k-...` hides it from a byte search).
fn contains_key(text: &str, v: &Value, key: &str) -> bool {
    if key.is_empty() {
        return false;
    }
    if text.contains(key) {
        return true;
    }
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.contains(key) => return true,
            Value::Array(a) => stack.extend(a.iter()),
            Value::Object(o) => {
                for (k, x) in o {
                    if k.contains(key) {
                        return true;
                    }
                    stack.push(x);
                }
            }
            _ => {}
        }
    }
    false
}

/// The deepest nesting of arrays and objects in JSON text (strings and
/// escapes skipped), in one pass without recursion.
pub fn json_depth(text: &[u8]) -> usize {
    let (mut depth, mut max, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for &b in text {
        if in_str {
            if esc {
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else if b == b'"' {
                in_str = false;
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// An `X-Codethread-Custom-Id` header value for `id`: bytes outside visible
/// ASCII (and `%`) percent-encoded, so every id can be sent.
fn header_id(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if (0x21..0x7f).contains(&b) && b != b'%' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(feature = "http")]
fn attempt(agent: &ureq::Agent, url: &str, auth: Option<&str>, job: &Job, body: &[u8]) -> Attempt {
    let key = auth.and_then(|a| a.strip_prefix("Bearer "));
    finish(attempt_raw(agent, url, auth, key, job, body), key)
}

/// Redact, then cut, every message of an attempt.
fn finish(a: Attempt, key: Option<&str>) -> Attempt {
    match a {
        Attempt::Retry {
            code,
            message,
            wait,
        } => Attempt::Retry {
            code,
            message: snippet(&redact(message, key)),
            wait,
        },
        Attempt::Fatal { code, message } => Attempt::Fatal {
            code,
            message: snippet(&redact(message, key)),
        },
        ok => ok,
    }
}

#[cfg(feature = "http")]
fn attempt_raw(
    agent: &ureq::Agent,
    url: &str,
    auth: Option<&str>,
    key: Option<&str>,
    job: &Job,
    body: &[u8],
) -> Attempt {
    let mut req = agent
        .post(url)
        .header("Content-Type", "application/json")
        .header("X-Codethread-Custom-Id", header_id(&job.custom_id));
    if let Some(a) = auth {
        req = req.header("Authorization", a);
    }
    let mut resp = match req.send(body) {
        Ok(r) => r,
        Err(e) => return transport_error(e),
    };
    let status = resp.status().as_u16();
    let ra = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let text = match resp.body_mut().read_to_string() {
        Ok(t) => t,
        Err(e) => return transport_error(e),
    };
    decode_raw(status, ra.as_deref(), text, &job.custom_id, key)
}

/// How the runner reads one HTTP answer: `status`, the `Retry-After`
/// header, the body text, the request's `custom_id` and the API key (when
/// one is sent). Pure (no I/O), so it is fuzzed
/// (`crates/codethread-chain/fuzz`, target `llm`): an [`Attempt::Ok`] body
/// nests at most [`MAX_ANSWER_DEPTH`] levels and never contains the key;
/// messages are redacted, then cut to 300 bytes; a wait is at most
/// [`MAX_WAIT`].
pub fn decode_response(
    status: u16,
    retry_after_header: Option<&str>,
    text: String,
    custom_id: &str,
    key: Option<&str>,
) -> Attempt {
    finish(
        decode_raw(status, retry_after_header, text, custom_id, key),
        key,
    )
}

fn decode_raw(
    status: u16,
    retry_after_header: Option<&str>,
    text: String,
    custom_id: &str,
    key: Option<&str>,
) -> Attempt {
    let ra = retry_after(retry_after_header);
    // Error text is redacted whole by `finish`, then cut.
    if status == 429 || status == 408 || status >= 500 {
        return Attempt::Retry {
            code: format!("http_{status}"),
            message: text,
            wait: ra,
        };
    }
    if (300..400).contains(&status) {
        return Attempt::Fatal {
            code: format!("http_{status}"),
            message: "a redirect (not followed: the prompt was sent to this URL only)".into(),
        };
    }
    if status != 200 {
        return Attempt::Fatal {
            code: format!("http_{status}"),
            message: text,
        };
    }
    let depth = json_depth(text.as_bytes());
    if depth > MAX_ANSWER_DEPTH {
        return Attempt::Fatal {
            code: "too_deep".into(),
            message: format!(
                "the answer nests {depth} levels (at most {MAX_ANSWER_DEPTH} are stored)"
            ),
        };
    }
    let v: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            return Attempt::Retry {
                code: "malformed".into(),
                message: format!("response is not JSON: {e}"),
                wait: None,
            }
        }
    };
    if let Some(echo) = v.get("custom_id").and_then(Value::as_str) {
        if echo != custom_id {
            return Attempt::Retry {
                code: "wrong_custom_id".into(),
                message: format!("the endpoint answered for {echo:?}"),
                wait: None,
            };
        }
    }
    if key.is_some_and(|k| contains_key(&text, &v, k)) {
        return Attempt::Fatal {
            code: "key_echoed".into(),
            message: "the answer contains the API key; it is not stored".into(),
        };
    }
    match chat_completion(&v) {
        Some(Completion::Text(content, _)) => Attempt::Ok { content, body: v },
        // A refusal or a content filter is the model's answer to this
        // request: retrying the same body gives it again. Never stored as a
        // statement.
        Some(Completion::Refused(code, message)) => Attempt::Fatal { code, message },
        None => Attempt::Retry {
            code: "malformed".into(),
            message: "response has no choices[0].message.content".into(),
            wait: None,
        },
    }
}

fn snippet(text: &str) -> String {
    let mut end = text.len().min(300);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

#[cfg(feature = "http")]
fn transport_error(e: ureq::Error) -> Attempt {
    match e {
        ureq::Error::Timeout(t) => Attempt::Retry {
            code: "timeout".into(),
            message: format!("timed out ({t})"),
            wait: None,
        },
        ureq::Error::BadUri(_)
        | ureq::Error::RequireHttpsOnly(_)
        | ureq::Error::TlsRequired
        | ureq::Error::InvalidProxyUrl
        | ureq::Error::BodyExceedsLimit(_) => Attempt::Fatal {
            code: "request".into(),
            message: e.to_string(),
        },
        other => Attempt::Retry {
            code: "connection".into(),
            message: other.to_string(),
            wait: None,
        },
    }
}

#[cfg(feature = "http")]
enum Msg {
    Retry(usize, u32, Duration, String),
    Done(usize, JobOutcome),
}

#[cfg(feature = "http")]
/// Send every job that is not in the cache at `cache_dir`; see the module
/// docs. Returns one outcome per job; a failed job never stops the others.
/// Errors only for what stops the run before anything is sent.
pub fn run(
    jobs: &[Job],
    opts: &RunnerOptions,
    cache: &Cache,
    progress: &mut dyn FnMut(&Progress),
) -> Result<RunSummary, RunnerError> {
    let started = Instant::now();
    check_options(opts)?;
    let url = completions_url(&opts.endpoint);
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(RunnerError::BadEndpoint(opts.endpoint.clone()));
    }
    let auth = match &opts.api_key_env {
        None => None,
        Some(var) => match std::env::var(var) {
            Ok(k) if k.chars().any(char::is_control) => {
                return Err(RunnerError::BadOption(format!(
                    "api_key_env: the value of {var} has a control character (cannot be sent)"
                )))
            }
            Ok(k) if !k.is_empty() => Some(format!("Bearer {k}")),
            _ => return Err(RunnerError::MissingKey(var.clone())),
        },
    };
    // Bodies, keys, and duplicate ids.
    let mut seen: HashMap<&str, &str> = HashMap::new();
    let mut bodies = Vec::with_capacity(jobs.len());
    let mut keys = Vec::with_capacity(jobs.len());
    for j in jobs {
        let b = serde_json::to_vec(&j.body).map_err(|e| {
            RunnerError::Cache(LlmError::Request {
                custom_id: j.custom_id.clone(),
                problem: RequestProblem::Body(e.to_string()),
            })
        })?;
        keys.push(request_key(&b));
        bodies.push(b);
    }
    for (j, k) in jobs.iter().zip(&keys) {
        if let Some(prev) = seen.insert(&j.custom_id, k) {
            if prev != k {
                return Err(RunnerError::DuplicateId(j.custom_id.clone()));
            }
        }
    }
    let total = jobs.len();
    let mut outcomes: Vec<Option<JobOutcome>> = vec![None; total];
    let mut done = 0usize;
    let mut todo = Vec::new();
    // Jobs whose body is byte-identical to an earlier job's share its
    // answer (the cache is keyed by the body): sent once.
    let mut scheduled: HashMap<&str, usize> = HashMap::new();
    let mut same_body: Vec<(usize, usize)> = Vec::new();
    let key = auth.as_deref().and_then(|a| a.strip_prefix("Bearer "));
    for (i, j) in jobs.iter().enumerate() {
        if let Err(e) = super::check_id(&j.custom_id) {
            let o = JobOutcome::Failed {
                attempts: 0,
                code: "bad_id".into(),
                message: e.to_string(),
            };
            outcomes[i] = Some(o.clone());
            done += 1;
            progress(&Progress::Done {
                done,
                total,
                custom_id: j.custom_id.clone(),
                outcome: o,
            });
            continue;
        }
        let cached = match cache.get(&keys[i]) {
            // A record an older run stored with the key in it: dropped and
            // asked again.
            Ok(Some(r)) if key.is_some_and(|k| record_has_key(&r, k)) => {
                cache.remove(&keys[i]);
                Ok(None)
            }
            other => other,
        };
        match cached {
            Ok(Some(_)) => {
                outcomes[i] = Some(JobOutcome::Cached);
                done += 1;
                progress(&Progress::Done {
                    done,
                    total,
                    custom_id: j.custom_id.clone(),
                    outcome: JobOutcome::Cached,
                });
            }
            // Missing or damaged: ask again, once per distinct body.
            _ => match scheduled.get(keys[i].as_str()) {
                Some(&first) => same_body.push((i, first)),
                None => {
                    scheduled.insert(keys[i].as_str(), i);
                    todo.push(i);
                }
            },
        }
    }
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(opts.timeout))
        .http_status_as_error(false)
        // No redirects: a 3xx comes back as the answer (a permanent error).
        .max_redirects(0)
        .max_idle_connections_per_host(opts.concurrency.max(1))
        .build();
    let agent: ureq::Agent = config.into();
    let next = AtomicUsize::new(0);
    let sent = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Msg>();
    let workers = opts.concurrency.max(1).min(todo.len().max(1));
    let seed0 = started.elapsed().as_nanos() as u64
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9e37_79b9);
    std::thread::scope(|s| {
        for w in 0..workers {
            let tx = tx.clone();
            let (agent, url, auth, todo, next, sent) =
                (&agent, &url, auth.as_deref(), &todo, &next, &sent);
            let (bodies, keys) = (&bodies, &keys);
            s.spawn(move || {
                let mut rng = Jitter::new(
                    seed0.wrapping_add((w as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
                );
                loop {
                    let t = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&i) = todo.get(t) else { break };
                    let job = &jobs[i];
                    let mut attempts = 0u32;
                    let outcome = loop {
                        let n = sent.fetch_add(1, Ordering::SeqCst);
                        if opts.max_requests.is_some_and(|m| n >= m) {
                            break (
                                if attempts == 0 {
                                    JobOutcome::NotSent
                                } else {
                                    JobOutcome::Failed {
                                        attempts,
                                        code: "stopped".into(),
                                        message: "max_requests reached".into(),
                                    }
                                },
                                None,
                            );
                        }
                        attempts += 1;
                        match attempt(agent, url, auth, job, &bodies[i]) {
                            Attempt::Ok { content, body } => {
                                let rec = CacheRecord {
                                    custom_id: job.custom_id.clone(),
                                    key: keys[i].clone(),
                                    content,
                                    response: body,
                                    attempts,
                                };
                                break (JobOutcome::Answered { attempts }, Some(rec));
                            }
                            Attempt::Fatal { code, message } => {
                                break (
                                    JobOutcome::Failed {
                                        attempts,
                                        code,
                                        message,
                                    },
                                    None,
                                )
                            }
                            Attempt::Retry {
                                code,
                                message,
                                wait,
                            } => {
                                if attempts >= opts.max_attempts.max(1) {
                                    break (
                                        JobOutcome::Failed {
                                            attempts,
                                            code,
                                            message,
                                        },
                                        None,
                                    );
                                }
                                let b = backoff(opts, attempts, &mut rng);
                                let wait = match wait {
                                    Some(ra) => ra.min(opts.retry_after_max),
                                    None => b,
                                };
                                let _ = tx.send(Msg::Retry(i, attempts, wait, code));
                                std::thread::sleep(wait);
                            }
                        }
                    };
                    // Each worker stores its own answers (the atomic write
                    // syncs the file: done in parallel, not on one thread).
                    let outcome = match outcome {
                        (o, Some(r)) => match cache.put(&r) {
                            Ok(()) => o,
                            Err(e) => JobOutcome::Failed {
                                attempts: r.attempts,
                                code: "cache".into(),
                                message: format!("answer not stored: {e}"),
                            },
                        },
                        (o, None) => o,
                    };
                    if tx.send(Msg::Done(i, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for m in rx {
            match m {
                Msg::Retry(i, attempt, wait, reason) => progress(&Progress::Retry {
                    custom_id: jobs[i].custom_id.clone(),
                    attempt,
                    wait,
                    reason,
                }),
                Msg::Done(i, outcome) => {
                    done += 1;
                    progress(&Progress::Done {
                        done,
                        total,
                        custom_id: jobs[i].custom_id.clone(),
                        outcome: outcome.clone(),
                    });
                    outcomes[i] = Some(outcome);
                }
            }
        }
    });
    for (i, first) in same_body {
        let o = match &outcomes[first] {
            Some(JobOutcome::Answered { .. }) => JobOutcome::Cached,
            Some(o) => o.clone(),
            None => JobOutcome::NotSent,
        };
        done += 1;
        progress(&Progress::Done {
            done,
            total,
            custom_id: jobs[i].custom_id.clone(),
            outcome: o.clone(),
        });
        outcomes[i] = Some(o);
    }
    let http_requests = sent.load(Ordering::SeqCst);
    let http_requests = match opts.max_requests {
        Some(m) => http_requests.min(m),
        None => http_requests,
    };
    Ok(RunSummary {
        outcomes: jobs
            .iter()
            .zip(outcomes)
            .map(|(j, o)| (j.custom_id.clone(), o.unwrap_or(JobOutcome::NotSent)))
            .collect(),
        http_requests,
        elapsed: started.elapsed(),
    })
}

fn record_has_key(r: &CacheRecord, key: &str) -> bool {
    r.content.contains(key) || r.custom_id.contains(key) || contains_key("", &r.response, key)
}

/// The results of `jobs` as OpenAI-batch-output lines (answered ones from
/// the cache, the others with their error), in job order: the file
/// [`super::format::read_batch_output`] and `chain build --answers` read.
pub fn output_lines(jobs: &[Job], cache: &Cache, summary: &RunSummary) -> Vec<Value> {
    let outcome: HashMap<&str, &JobOutcome> = summary
        .outcomes
        .iter()
        .map(|(id, o)| (id.as_str(), o))
        .collect();
    jobs.iter()
        .map(|j| {
            let key = serde_json::to_vec(&j.body)
                .map(|b| request_key(&b))
                .unwrap_or_default();
            match cache.get(&key) {
                Ok(Some(r)) => super::format::output_line_ok(&j.custom_id, &key[..16], &r.response),
                _ => {
                    let (code, msg) = match outcome.get(j.custom_id.as_str()) {
                        Some(JobOutcome::Failed { code, message, .. }) => {
                            (code.clone(), message.clone())
                        }
                        Some(JobOutcome::NotSent) | None => {
                            ("not_sent".to_string(), "not sent (run stopped)".to_string())
                        }
                        Some(_) => (
                            "cache".to_string(),
                            "answer missing from the cache".to_string(),
                        ),
                    };
                    super::format::output_line_error(&j.custom_id, &code, &msg)
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod retry_after_tests {
    use super::*;

    #[test]
    fn seconds_and_http_dates() {
        let now = std::time::UNIX_EPOCH + Duration::from_secs(784_111_777); // 1994-11-06 08:49:37
        assert_eq!(retry_after_at(Some("7"), now), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after_at(Some("0.5"), now),
            Some(Duration::from_millis(500))
        );
        assert_eq!(
            retry_after_at(Some("Sun, 06 Nov 1994 08:49:47 GMT"), now),
            Some(Duration::from_secs(10))
        );
        // A date in the past: retry now.
        assert_eq!(
            retry_after_at(Some("Sat, 05 Nov 1994 08:49:37 GMT"), now),
            Some(Duration::ZERO)
        );
        assert_eq!(http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            http_date("Tue, 29 Feb 2028 12:00:00 GMT"),
            Some(1_835_438_400)
        );
        for bad in [
            "-1",
            "soon",
            "Sun, 06 Nov 1994 08:49:37 PST",
            "06 Nov 1994",
            "Sun, 32 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(retry_after_at(Some(bad), now), None, "{bad}");
        }
    }
}
