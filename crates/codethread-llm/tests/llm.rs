//! The LLM stage formats and the online runner, against a real HTTP
//! server on loopback (`codethread_testkit::chat_server`) with injected
//! faults.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use codethread_llm::Cache;
use codethread_llm::{
    anthropic_batch_line, openai_batch_line, read_batch_output, validate_request_line, BatchFormat,
    GenParams,
};
use codethread_llm::{output_lines, run, Job, JobOutcome, RunnerOptions};
use codethread_llm::{ChatMessage, LlmRequest};
use codethread_testkit::chat_server::{ChatServer, Fault};
use serde_json::{json, Value};

fn tmp(stem: &str) -> PathBuf {
    codethread_lang::io::create_temp_dir_in(&std::env::temp_dir(), stem).expect("temp dir")
}

fn request(id: &str) -> LlmRequest {
    LlmRequest {
        custom_id: id.into(),
        messages: vec![
            ChatMessage {
                role: "system".into(),
                content: "You write task statements.".into(),
            },
            ChatMessage {
                role: "user".into(),
                content: format!("Describe {id}."),
            },
        ],
        metadata: json!({}),
    }
}

fn params() -> GenParams {
    GenParams {
        model: "m".into(),
        temperature: None,
        max_tokens: 512,
    }
}

#[test]
fn request_lines_follow_the_published_schemas() {
    let r = request("django__django-11099");
    let o = openai_batch_line(&r, &params());
    validate_request_line(BatchFormat::OpenaiBatch, &o).expect("openai line");
    assert_eq!(o["method"], "POST");
    assert_eq!(o["url"], "/v1/chat/completions");
    assert_eq!(o["body"]["messages"][0]["role"], "system");
    assert_eq!(o["body"]["max_completion_tokens"], 512);
    assert!(o["body"].get("max_tokens").is_none() && o["body"].get("temperature").is_none());
    let a = anthropic_batch_line(&r, &params()).expect("anthropic line");
    validate_request_line(BatchFormat::AnthropicBatch, &a).expect("anthropic line");
    assert_eq!(a["params"]["system"], "You write task statements.");
    assert_eq!(a["params"]["messages"].as_array().map(Vec::len), Some(1));
    assert_eq!(a["params"]["messages"][0]["role"], "user");
    // Lines the schemas refuse.
    let mut bad = o.clone();
    bad["method"] = json!("GET");
    assert!(validate_request_line(BatchFormat::OpenaiBatch, &bad).is_err());
    let mut bad = o.clone();
    bad["body"]["messages"][0]["role"] = json!("robot");
    assert!(validate_request_line(BatchFormat::OpenaiBatch, &bad).is_err());
    let mut bad = a.clone();
    bad["params"]
        .as_object_mut()
        .expect("obj")
        .remove("max_tokens");
    assert!(validate_request_line(BatchFormat::AnthropicBatch, &bad).is_err());
    let mut bad = a.clone();
    bad["params"]["messages"][0]["role"] = json!("system");
    assert!(validate_request_line(BatchFormat::AnthropicBatch, &bad).is_err());
    // Anthropic refuses ids outside ^[a-zA-Z0-9_-]{1,64}$.
    assert!(anthropic_batch_line(&request("a/b.c"), &params()).is_err());
}

/// Sampling fields per provider schema: no `--temperature`, no field in
/// either format; a temperature goes into OpenAI / vLLM bodies only, and is
/// refused (not written, not dropped silently) for Anthropic, whose params
/// have no sampling field; values outside `[0, 2]` (and NaN, which JSON
/// cannot hold) are refused everywhere.
#[test]
fn sampling_fields_follow_each_provider() {
    let r = request("django__django-11099");
    let a = anthropic_batch_line(&r, &params()).expect("anthropic line");
    assert!(a["params"].get("temperature").is_none(), "{a}");
    assert_eq!(a["params"]["max_tokens"], 512);
    let mut bad = a.clone();
    bad["params"]["temperature"] = json!(0.0);
    assert!(validate_request_line(BatchFormat::AnthropicBatch, &bad).is_err());
    for t in [0.0, 0.7, 2.0] {
        let p = GenParams {
            temperature: Some(t),
            ..params()
        };
        p.check(BatchFormat::OpenaiBatch)
            .expect("openai temperature");
        let o = openai_batch_line(&r, &p);
        assert_eq!(o["body"]["temperature"], json!(t));
        validate_request_line(BatchFormat::OpenaiBatch, &o).expect("valid");
        assert!(p.check(BatchFormat::AnthropicBatch).is_err());
        let e = anthropic_batch_line(&r, &p).expect_err("anthropic has no temperature");
        assert!(e.to_string().contains("temperature"), "{e}");
    }
    for t in [f64::NAN, f64::INFINITY, -0.5, 2.5] {
        let p = GenParams {
            temperature: Some(t),
            ..params()
        };
        assert!(p.check(BatchFormat::OpenaiBatch).is_err(), "{t}");
    }
    let p = GenParams {
        max_tokens: 0,
        ..params()
    };
    assert!(p.check(BatchFormat::OpenaiBatch).is_err());
    assert!(p.check(BatchFormat::AnthropicBatch).is_err());
}

/// `vllm run-batch` writes a failed request as `{"response": {"status_code":
/// 400, ...}, "error": "<exception text>"}` (a string), and an engine error
/// as its `ErrorResponse` object (`{"error": {"message", "type", "code"}}`,
/// or the older flat `{"object": "error", "message", ...}`): every message is
/// kept on import.
#[test]
fn vllm_error_messages_survive_import() {
    let dir = tmp("llm-vllm-err");
    let p = dir.join("out.jsonl");
    let lines = [
        json!({"id": "vllm-1", "custom_id": "a", "response": {"status_code": 400, "request_id": "vllm-batch-1"}, "error": "1 validation error for ChatCompletionRequest"}),
        json!({"id": "vllm-2", "custom_id": "b", "response": {"status_code": 400, "request_id": "vllm-batch-2", "body": null}, "error": {"error": {"message": "This model's maximum context length is 4096 tokens", "type": "BadRequestError", "param": null, "code": 400}}}),
        json!({"id": "vllm-3", "custom_id": "c", "response": {"status_code": 400, "request_id": "vllm-batch-3", "body": null}, "error": {"object": "error", "message": "The model `x` does not exist.", "type": "NotFoundError", "param": null, "code": 404}}),
        json!({"id": "vllm-4", "custom_id": "d", "response": {"status_code": 500, "request_id": "r", "body": {"object": "error", "message": "engine dead"}}, "error": null}),
    ];
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(
        &p,
        text.join(
            "
",
        ),
    )
    .expect("write");
    let o = read_batch_output(&p, None, Default::default()).expect("read");
    let got: Vec<(&str, &str, &str)> = o
        .failures
        .iter()
        .map(|f| (f.instance_id.as_str(), f.kind.as_str(), f.message.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "a",
                "http_400",
                "1 validation error for ChatCompletionRequest"
            ),
            (
                "b",
                "error:400",
                "This model's maximum context length is 4096 tokens"
            ),
            ("c", "error:404", "The model `x` does not exist."),
            ("d", "http_500", "engine dead"),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The anthropic Python package's own types accept every Anthropic line
/// this crate writes (`anthropic_batch_line`, and the `chain requests
/// --format anthropic` form `LlmRequest::to_anthropic_batch`): each key
/// must be a field of `batch_create_params.Request` /
/// `MessageCreateParamsNonStreaming` / the message TypedDicts (pydantic
/// ignores unknown TypedDict keys, so a stray `temperature` is caught by the
/// key check, which the script proves can fail), and pydantic validates the
/// values. Skipped without `CODETHREAD_PYTHON`; with CODETHREAD_SHARED set a
/// missing package is a failure.
#[test]
fn anthropic_python_types_accept_our_lines() {
    let Some(py) = std::env::var_os("CODETHREAD_PYTHON") else {
        eprintln!("SKIPPED anthropic_python_types_accept_our_lines: CODETHREAD_PYTHON not set");
        return;
    };
    let has = std::process::Command::new(&py)
        .args([
            "-c",
            "import anthropic, pydantic; from anthropic.types.messages import batch_create_params",
        ])
        .output();
    if !has.is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var_os(codethread_testkit::ENV).is_none_or(|v| v.is_empty()),
            "CODETHREAD_SHARED is set but CODETHREAD_PYTHON cannot import anthropic and pydantic"
        );
        eprintln!(
            "SKIPPED anthropic_python_types_accept_our_lines: no anthropic package in CODETHREAD_PYTHON"
        );
        return;
    }
    let dir = tmp("llm-py-anthropic");
    let p = dir.join("batch.jsonl");
    let mut lines = String::new();
    let mut no_system = request("no-system");
    no_system.messages.remove(0);
    let mut turns = request("turns_2");
    turns.messages.push(ChatMessage {
        role: "assistant".into(),
        content: "A draft.".into(),
    });
    turns.messages.push(ChatMessage {
        role: "user".into(),
        content: "Again.".into(),
    });
    let reqs = [
        request("a-1"),
        request("django__django-11099"),
        no_system,
        turns,
    ];
    for r in &reqs {
        for p in [
            params(),
            GenParams {
                max_tokens: 1,
                ..params()
            },
        ] {
            lines.push_str(&format!("{}\n", anthropic_batch_line(r, &p).expect("line")));
        }
        lines.push_str(&format!("{}\n", r.to_anthropic_batch("claude-x", 4096)));
    }
    std::fs::write(&p, lines).expect("write");
    let script = r#"
import json, sys, typing
import pydantic
import anthropic
from anthropic.types.messages import batch_create_params as b
from anthropic.types import MessageParam
Req = b.Request
Params = b.MessageCreateParamsNonStreaming
req_keys = set(typing.get_type_hints(Req))
param_keys = set(typing.get_type_hints(Params))
msg_keys = set()
for t in typing.get_args(MessageParam):
    msg_keys |= set(typing.get_type_hints(t))
adapter = pydantic.TypeAdapter(Req)
msg = pydantic.TypeAdapter(MessageParam)

def check(d):
    for k in d:
        assert k in req_keys, f"request key {k!r}"
    for k in d["params"]:
        assert k in param_keys, f"params key {k!r} is not in MessageCreateParamsNonStreaming"
    for m in d["params"]["messages"]:
        for k in m:
            assert k in msg_keys, f"message key {k!r}"
        msg.validate_python(m)
    adapter.validate_python(d)

n = 0
for l in open(sys.argv[1]):
    d = json.loads(l)
    check(d)
    # The check can fail: a sampling field and a bad max_tokens are refused.
    for bad in [dict(d["params"], temperature=0.0), dict(d["params"], max_tokens="many")]:
        try:
            check(dict(d, params=bad))
        except (AssertionError, pydantic.ValidationError):
            pass
        else:
            raise SystemExit(f"accepted {sorted(bad)}: the check cannot fail")
    n += 1
print(anthropic.__version__, n)
"#;
    let out = std::process::Command::new(py)
        .arg("-c")
        .arg(script)
        .arg(&p)
        .output()
        .expect("python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("anthropic {stdout}");
    assert!(
        stdout.trim().ends_with(&format!(" {}", reqs.len() * 3)),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The openai Python package's own types accept our OpenAI batch request
/// bodies (pydantic validates each body against
/// `CompletionCreateParamsNonStreaming`, whose keys must cover ours), when
/// `CODETHREAD_PYTHON` names an interpreter with `openai` installed
/// (skipped otherwise).
#[test]
fn openai_python_types_accept_our_lines() {
    let Some(py) = std::env::var_os("CODETHREAD_PYTHON") else {
        eprintln!("SKIPPED openai_python_types_accept_our_lines: CODETHREAD_PYTHON not set");
        return;
    };
    let has = std::process::Command::new(&py)
        .args(["-c", "import openai, pydantic"])
        .output();
    if !has.is_ok_and(|o| o.status.success()) {
        // CI's environment (mini-swe-agent pulls in litellm and openai) must have it: with
        // the real-data suites on, a missing package is a failure, not a skip.
        assert!(
            std::env::var_os(codethread_testkit::ENV).is_none_or(|v| v.is_empty()),
            "CODETHREAD_SHARED is set but CODETHREAD_PYTHON cannot import openai and pydantic"
        );
        eprintln!(
            "SKIPPED openai_python_types_accept_our_lines: no openai package in CODETHREAD_PYTHON"
        );
        return;
    }
    let dir = tmp("llm-py");
    let p = dir.join("batch.jsonl");
    let hot = GenParams {
        temperature: Some(0.5),
        ..params()
    };
    let lines: String = ["a-1", "django__django-11099"]
        .iter()
        .flat_map(|id| {
            [
                openai_batch_line(&request(id), &params()),
                openai_batch_line(&request(id), &hot),
            ]
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&p, lines).expect("write");
    let script = r#"
import json, sys, typing
import pydantic
from openai.types.chat import completion_create_params as c
T = c.CompletionCreateParamsNonStreaming
hints = typing.get_type_hints(T)
adapter = pydantic.TypeAdapter(T)
from openai.types.chat import ChatCompletionMessageParam
msg = pydantic.TypeAdapter(ChatCompletionMessageParam)
n = 0
for l in open(sys.argv[1]):
    d = json.loads(l)
    assert set(d) == {"custom_id", "method", "url", "body"}, d.keys()
    assert d["method"] == "POST" and d["url"] == "/v1/chat/completions"
    for k in d["body"]:
        assert k in hints, k
    adapter.validate_python(d["body"])
    # Iterable fields are validated lazily by pydantic: each message on its own.
    for m in d["body"]["messages"]:
        msg.validate_python(m)
    for bad_msg in [{"role": "robot", "content": "x"}, {"role": "user"}]:
        try:
            msg.validate_python(bad_msg)
            raise SystemExit(f"accepted {bad_msg}: the check cannot fail")
        except pydantic.ValidationError:
            pass
    try:
        adapter.validate_python(dict(d["body"], max_tokens="many"))
        raise SystemExit("accepted max_tokens='many': the check cannot fail")
    except pydantic.ValidationError:
        pass
    n += 1
print(n)
"#;
    let out = std::process::Command::new(py)
        .arg("-c")
        .arg(script)
        .arg(&p)
        .output()
        .expect("python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "4");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outputs_with_mixed_results_keep_every_error_per_instance() {
    let dir = tmp("llm-out");
    let p = dir.join("out.jsonl");
    let lines = [
        json!({"id": "b1", "custom_id": "a", "response": {"status_code": 200, "request_id": "r1", "body": {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "A"}}]}}, "error": null}).to_string(),
        json!({"id": "b2", "custom_id": "b", "response": null, "error": {"code": "batch_expired", "message": "not done in 24h"}}).to_string(),
        json!({"id": "b3", "custom_id": "c", "response": {"status_code": 500, "request_id": "r3", "body": {"error": {"message": "overloaded"}}}, "error": null}).to_string(),
        json!({"custom_id": "d", "result": {"type": "succeeded", "message": {"content": [{"type": "text", "text": "D"}], "stop_reason": "max_tokens"}}}).to_string(),
        json!({"custom_id": "e", "result": {"type": "errored", "error": {"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}}}}).to_string(),
        json!({"custom_id": "f", "result": {"type": "canceled"}}).to_string(),
        json!({"custom_id": "g", "result": {"type": "expired"}}).to_string(),
        "{not json".to_string(),
        json!({"custom_id": "zz", "content": "stray"}).to_string(),
        json!({"instance_id": "h", "content": "H"}).to_string(),
    ];
    std::fs::write(&p, lines.join("\n")).expect("write");
    let expected: Vec<String> = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let o = read_batch_output(&p, Some(&expected), Default::default()).expect("read");
    let answers: Vec<(&str, &str)> = o
        .answers
        .iter()
        .map(|a| (a.instance_id.as_str(), a.content.as_str()))
        .collect();
    assert_eq!(answers, vec![("a", "A"), ("d", "D"), ("h", "H")]);
    let fails: Vec<(&str, usize, &str)> = o
        .failures
        .iter()
        .map(|f| (f.instance_id.as_str(), f.line, f.kind.as_str()))
        .collect();
    assert_eq!(
        fails,
        vec![
            ("b", 2, "error:batch_expired"),
            ("c", 3, "http_500"),
            ("e", 5, "errored:invalid_request_error"),
            ("f", 6, "canceled"),
            ("g", 7, "expired"),
        ]
    );
    assert_eq!(o.errors.len(), 1, "{:?}", o.errors);
    assert!(o.errors[0].to_string().contains(":8:"), "{}", o.errors[0]);
    assert_eq!(o.unknown, vec!["zz"]);
    assert_eq!(o.missing, vec!["i"]);
    assert!(
        o.warnings.iter().any(|w| w.contains("d: truncated")),
        "{:?}",
        o.warnings
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn jobs(n: usize) -> Vec<Job> {
    (0..n)
        .map(|i| Job {
            custom_id: format!("inst-{i}"),
            body: json!({"model": "m", "messages": [{"role": "user", "content": format!("q{i}")}], "temperature": 0.0, "max_tokens": 16}),
        })
        .collect()
}

fn opts(server: &ChatServer) -> RunnerOptions {
    RunnerOptions::default()
        .endpoint(server.base_url())
        .concurrency(4)
        .timeout(Duration::from_millis(700))
        .max_attempts(5)
        .backoff_base(Duration::from_millis(5))
        .backoff_max(Duration::from_millis(50))
}

fn files_containing(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read(&p).is_ok_and(|b| b.windows(needle.len()).any(|w| w == needle))
            {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn every_fault_is_retried_and_every_request_answered_once() {
    let script: codethread_testkit::chat_server::Script = Arc::new(|id: &str, attempt: u32| {
        if attempt > 1 {
            return Fault::None;
        }
        match id {
            "inst-0" => Fault::TooMany("0.2".into()),
            "inst-1" => Fault::ServerError,
            "inst-2" => Fault::Slow(Duration::from_millis(1500)),
            "inst-3" => Fault::Drop,
            "inst-4" => Fault::Malformed,
            "inst-5" => Fault::WrongId,
            _ => Fault::None,
        }
    });
    let server = ChatServer::start(Duration::from_millis(5), script);
    let dir = tmp("llm-run");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    let secret = "sk-codethread-test-5f1d9c0e7b";
    std::env::set_var("CODETHREAD_TEST_KEY_FAULTS", secret);
    let mut o = opts(&server);
    o.api_key_env = Some("CODETHREAD_TEST_KEY_FAULTS".into());
    let js = jobs(12);
    let mut retries = Vec::new();
    let mut done = 0;
    let s = run(&js, &o, &cache, &mut |p| match p {
        codethread_llm::Progress::Retry {
            custom_id,
            reason,
            wait,
            ..
        } => retries.push((custom_id.clone(), reason.clone(), *wait)),
        codethread_llm::Progress::Done { .. } => done += 1,
    })
    .expect("run");
    assert_eq!(done, 12);
    assert_eq!(s.counts(), (0, 12, 0, 0), "{:?}", s.outcomes);
    let seen = server.seen();
    for j in &js {
        assert_eq!(seen.answered.get(&j.custom_id), Some(&1), "{}", j.custom_id);
    }
    for (id, why) in [
        ("inst-0", "http_429"),
        ("inst-1", "http_500"),
        ("inst-2", "timeout"),
        ("inst-3", "connection"),
        ("inst-4", "malformed"),
        ("inst-5", "wrong_custom_id"),
    ] {
        assert!(
            retries.iter().any(|(i, r, _)| i == id && r == why),
            "{id} {why}: {retries:?}"
        );
        assert_eq!(seen.attempts.get(id), Some(&2), "{id}");
    }
    // Retry-After honoured.
    let ra = retries.iter().find(|(i, _, _)| i == "inst-0").map(|x| x.2);
    assert_eq!(ra, Some(Duration::from_millis(200)));
    assert!(seen.auth.iter().all(|a| a == &format!("Bearer {secret}")) && !seen.auth.is_empty());
    // The output file and the cache never hold the key.
    let out = dir.join("answers.jsonl");
    let lines: Vec<String> = output_lines(&js, &cache, &s)
        .iter()
        .map(Value::to_string)
        .collect();
    std::fs::write(&out, lines.join("\n")).expect("write");
    assert!(files_containing(&dir, secret.as_bytes()).is_empty());
    let back = read_batch_output(
        &out,
        Some(&js.iter().map(|j| j.custom_id.clone()).collect::<Vec<_>>()),
        Default::default(),
    )
    .expect("read");
    assert_eq!(back.answers.len(), 12);
    assert!(back
        .answers
        .iter()
        .all(|a| a.content == format!("answer for {}", a.instance_id)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stopped_run_resumes_with_only_the_missing_requests() {
    let server = ChatServer::start(Duration::from_millis(2), Arc::new(|_: &str, _| Fault::None));
    let dir = tmp("llm-resume");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    let js = jobs(20);
    let mut o = opts(&server);
    o.max_requests = Some(7);
    let s = run(&js, &o, &cache, &mut |_| {}).expect("run");
    let (cached, answered, failed, not_sent) = s.counts();
    assert_eq!((cached, answered, failed, not_sent), (0, 7, 0, 13));
    assert_eq!(server.total(), 7);
    o.max_requests = None;
    let s = run(&js, &o, &cache, &mut |_| {}).expect("run");
    assert_eq!(s.counts(), (7, 13, 0, 0));
    assert_eq!(server.total(), 20, "only the 13 missing requests were sent");
    let s = run(&js, &o, &cache, &mut |_| {}).expect("run");
    assert_eq!(s.counts(), (20, 0, 0, 0));
    assert_eq!(server.total(), 20, "a finished run sends nothing");
    let seen = server.seen();
    assert!(js
        .iter()
        .all(|j| seen.answered.get(&j.custom_id) == Some(&1)));
    // A damaged record (a torn write by another tool) is asked again.
    let first = std::fs::read_dir(cache.dir())
        .expect("dir")
        .flatten()
        .next()
        .expect("a record")
        .path();
    std::fs::write(&first, b"{\"custom_id\":").expect("damage");
    let s = run(&js, &o, &cache, &mut |_| {}).expect("run");
    assert_eq!(s.counts(), (19, 1, 0, 0));
    // Two ids with a byte-identical body: one request, one shared answer.
    let mut twins = jobs(2);
    twins[1].body = twins[0].body.clone();
    twins[0].body["messages"][0]["content"] = serde_json::json!("twin");
    twins[1].body = twins[0].body.clone();
    let before = server.total();
    let s = run(&twins, &o, &cache, &mut |_| {}).expect("run");
    assert_eq!(s.counts(), (1, 1, 0, 0));
    assert_eq!(server.total(), before + 1);
    let back = output_lines(&twins, &cache, &s);
    assert!(back.iter().all(|l| l["response"]["status_code"] == 200));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_key_quoted_by_the_endpoint_is_not_stored() {
    let server = ChatServer::start(Duration::ZERO, Arc::new(|_: &str, _| Fault::EchoAuth));
    let dir = tmp("llm-401");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    let secret = "sk-codethread-echo-77aa01";
    std::env::set_var("CODETHREAD_TEST_KEY_ECHO", secret);
    let mut o = opts(&server);
    o.api_key_env = Some("CODETHREAD_TEST_KEY_ECHO".into());
    let js = jobs(2);
    let s = run(&js, &o, &cache, &mut |_| {}).expect("run");
    // 401 is permanent: one attempt each, the message redacted.
    assert_eq!(server.total(), 2);
    for (_, x) in &s.outcomes {
        match x {
            JobOutcome::Failed {
                attempts: 1,
                code,
                message,
            } if code == "http_401" => {
                assert!(
                    !message.contains(secret) && message.contains("<redacted>"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
    }
    let out = dir.join("output.jsonl");
    let lines: Vec<String> = output_lines(&js, &cache, &s)
        .iter()
        .map(Value::to_string)
        .collect();
    std::fs::write(&out, lines.join("\n")).expect("write");
    assert!(files_containing(&dir, secret.as_bytes()).is_empty());
    let back = read_batch_output(&out, None, Default::default()).expect("read");
    assert_eq!(back.failures.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn attempts_run_out_and_the_key_must_exist() {
    let server = ChatServer::start(Duration::ZERO, Arc::new(|_: &str, _| Fault::ServerError));
    let dir = tmp("llm-fail");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    let mut o = opts(&server);
    o.max_attempts = 3;
    let s = run(&jobs(2), &o, &cache, &mut |_| {}).expect("run");
    assert!(s.outcomes.iter().all(
        |(_, x)| matches!(x, JobOutcome::Failed { attempts: 3, code, .. } if code == "http_500")
    ));
    assert_eq!(server.total(), 6);
    o.api_key_env = Some("CODETHREAD_TEST_KEY_SURELY_UNSET".into());
    let e = run(&jobs(2), &o, &cache, &mut |_| {}).expect_err("no key");
    assert!(e.to_string().contains("CODETHREAD_TEST_KEY_SURELY_UNSET"));
    let _ = std::fs::remove_dir_all(&dir);
}
