//! The online runner and the LLM loaders against hostile input: numbers
//! from the network and the options, redirects, an endpoint that echoes
//! the key, links planted below the output root, answers nested deep, ids
//! with control characters (`docs/chain.md` §5a).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use codethread_llm::read_batch_output;
use codethread_llm::Cache;
use codethread_llm::{check_id, load_requests, printable_id};
use codethread_llm::{
    output_lines, run, seconds_option, Job, JobOutcome, RunnerError, RunnerOptions, MAX_WAIT,
};
use codethread_testkit::chat_server::{ChatServer, Fault, Script};
use serde_json::{json, Value};

fn tmp(stem: &str) -> PathBuf {
    codethread_lang::io::create_temp_dir_in(&std::env::temp_dir(), stem).expect("temp dir")
}

fn jobs(ids: &[&str]) -> Vec<Job> {
    ids.iter()
        .map(|id| Job {
            custom_id: id.to_string(),
            body: json!({"model": "m", "messages": [{"role": "user", "content": format!("q {id}")}], "max_completion_tokens": 16}),
        })
        .collect()
}

fn opts(server: &ChatServer) -> RunnerOptions {
    RunnerOptions::default()
        .endpoint(server.base_url())
        .concurrency(2)
        .timeout(Duration::from_secs(5))
        .max_attempts(3)
        .backoff_base(Duration::from_millis(5))
        .backoff_max(Duration::from_millis(20))
        .retry_after_max(Duration::from_millis(30))
}

fn raw(status: u16, headers: &str, body: &str) -> Fault {
    Fault::Raw {
        status,
        headers: headers.into(),
        body: body.into(),
    }
}

fn answer_with(content: &str) -> String {
    json!({"id": "c", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}]}).to_string()
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

fn outcome<'a>(s: &'a codethread_llm::RunSummary, id: &str) -> &'a JobOutcome {
    &s.outcomes.iter().find(|(i, _)| i == id).expect("job").1
}

fn failed_code(o: &JobOutcome) -> Option<(&str, &str)> {
    match o {
        JobOutcome::Failed { code, message, .. } => Some((code.as_str(), message.as_str())),
        _ => None,
    }
}

/// A `Retry-After` of any size (1e20 s overflows a Duration) is capped at
/// `retry_after_max`, never a panic; `nan` / `-5` / text fall back to the
/// backoff. The run answers every job.
#[test]
fn huge_or_bad_retry_after_is_capped_not_a_panic() {
    let script: Script = Arc::new(|id: &str, attempt: u32| {
        if attempt > 1 {
            return Fault::None;
        }
        match id {
            "a" => Fault::TooMany("1e20".into()),
            "b" => Fault::TooMany("18446744073709551616".into()),
            "c" => Fault::TooMany("1e308".into()),
            "d" => Fault::TooMany("nan".into()),
            "e" => Fault::TooMany("-5".into()),
            "f" => Fault::TooMany("Fri, 31 Dec 9999 23:59:59 GMT".into()),
            _ => Fault::None,
        }
    });
    let server = ChatServer::start(Duration::ZERO, script);
    let dir = tmp("llm-ra");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    let js = jobs(&["a", "b", "c", "d", "e", "f"]);
    let mut waits = Vec::new();
    let s = run(&js, &opts(&server), &cache, &mut |p| {
        if let codethread_llm::Progress::Retry {
            custom_id, wait, ..
        } = p
        {
            waits.push((custom_id.clone(), *wait));
        }
    })
    .expect("run");
    assert_eq!(s.counts(), (0, 6, 0, 0), "{:?}", s.outcomes);
    for (id, w) in &waits {
        assert!(*w <= Duration::from_millis(30), "{id}: {w:?}");
    }
    assert_eq!(waits.len(), 6, "{waits:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Duration flags and options are validated: `inf`, `1e30`, `nan`, `-5`,
/// `0` are typed errors naming the option (they panicked or silently became
/// 1 ms); options above a week are refused before anything is sent.
#[test]
fn duration_options_are_bounded_typed_errors() {
    for bad in [f64::INFINITY, 1e30, f64::NAN, -5.0, 0.0, -0.0, 1e7] {
        let e = seconds_option("--timeout", bad).expect_err("bad timeout");
        assert!(
            matches!(&e, RunnerError::BadOption(m) if m.contains("--timeout")),
            "{bad}: {e}"
        );
    }
    for good in [0.001, 1.0, 600.0, MAX_WAIT.as_secs_f64()] {
        assert_eq!(
            seconds_option("--timeout", good).expect("good"),
            Duration::from_secs_f64(good)
        );
    }
    let server = ChatServer::start(Duration::ZERO, Arc::new(|_: &str, _| Fault::None));
    let dir = tmp("llm-opts");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    for o in [
        (opts(&server)).timeout(Duration::ZERO),
        (opts(&server)).timeout(Duration::MAX),
        (opts(&server)).backoff_base(Duration::MAX),
        (opts(&server)).retry_after_max(Duration::from_secs(u64::MAX)),
        (opts(&server)).concurrency(1 << 40),
    ] {
        let e = run(&jobs(&["a"]), &o, &cache, &mut |_| {}).expect_err("bad option");
        assert!(matches!(e, RunnerError::BadOption(_)), "{e}");
    }
    assert_eq!(server.total(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 301 / 302 / 303 / 307 / 308 are not followed: the job fails with
/// `http_3xx` after one attempt, the redirect target receives nothing, and
/// nothing is cached (a re-run asks again).
#[test]
fn redirects_are_not_followed_or_cached() {
    let target = ChatServer::start(Duration::ZERO, Arc::new(|_: &str, _| Fault::None));
    let loc = format!("Location: {}/chat/completions\r\n", target.base_url());
    let script: Script = Arc::new(move |id: &str, _| {
        let status = id.parse::<u16>().unwrap_or(302);
        raw(status, &loc, &answer_with("from the redirect body"))
    });
    let server = ChatServer::start(Duration::ZERO, script);
    let dir = tmp("llm-redirect");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    let ids = ["301", "302", "303", "307", "308"];
    let js = jobs(&ids);
    for round in 0..2 {
        let s = run(&js, &opts(&server), &cache, &mut |_| {}).expect("run");
        for id in ids {
            match outcome(&s, id) {
                JobOutcome::Failed {
                    attempts: 1, code, ..
                } => {
                    assert_eq!(code, &format!("http_{id}"))
                }
                o => panic!("round {round}: {id}: {o:?}"),
            }
        }
        assert_eq!(target.total(), 0, "the redirect target was contacted");
        assert_eq!(server.total(), ids.len() * (round + 1));
        assert_eq!(std::fs::read_dir(cache.dir()).expect("dir").count(), 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An endpoint that echoes the key in a 200 answer (in the text, in another
/// field, JSON-escaped, in a key): the answer is refused (`key_echoed`),
/// never cached, and no file under OUT holds the key; error text is
/// redacted before it is cut (a key after 290 bytes of text does not leave
/// a prefix), and a short key in an error message withholds the message.
#[test]
fn an_echoed_key_is_never_stored_or_printed() {
    let script: Script = Arc::new(|id: &str, _| match id {
        "content" => raw(200, "", &answer_with("your key is {AUTH} ok")),
        "field" => raw(
            200,
            "",
            r#"{"choices": [{"message": {"role": "assistant", "content": "fine"}}], "echo": {"headers": ["Bearer {AUTH}"]}}"#,
        ),
        "escaped" => raw(
            200,
            "",
            r#"{"choices": [{"message": {"role": "assistant", "content": "fine"}}], "x": "\u0073k-hostile-{ID}"}"#,
        ),
        "keyname" => raw(
            200,
            "",
            r#"{"choices": [{"message": {"role": "assistant", "content": "fine"}}], "{AUTH}": 1}"#,
        ),
        "late" => raw(400, "", &format!("{}{{AUTH}} trailing", "x".repeat(290))),
        _ => Fault::None,
    });
    let server = ChatServer::start(Duration::ZERO, script);
    let dir = tmp("llm-echo");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    // The `escaped` answer spells this key with a JSON escape.
    let secret = "sk-hostile-escaped";
    std::env::set_var("CODETHREAD_TEST_KEY_HOSTILE", secret);
    let mut o = opts(&server);
    o.api_key_env = Some("CODETHREAD_TEST_KEY_HOSTILE".into());
    let js = jobs(&["content", "field", "escaped", "keyname", "late", "plain"]);
    let s = run(&js, &o, &cache, &mut |_| {}).expect("run");
    for id in ["content", "field", "escaped", "keyname"] {
        assert_eq!(
            failed_code(outcome(&s, id)).map(|c| c.0),
            Some("key_echoed"),
            "{id}: {:?}",
            outcome(&s, id)
        );
    }
    let (code, msg) = failed_code(outcome(&s, "late")).expect("late fails");
    assert_eq!(code, "http_400");
    assert!(!msg.contains(&secret[..6]), "a key prefix survived: {msg}");
    assert!(matches!(outcome(&s, "plain"), JobOutcome::Answered { .. }));
    let out = dir.join("output.jsonl");
    let lines: Vec<String> = output_lines(&js, &cache, &s)
        .iter()
        .map(Value::to_string)
        .collect();
    std::fs::write(&out, lines.join("\n")).expect("write");
    assert!(files_containing(&dir, secret.as_bytes()).is_empty());
    assert!(files_containing(&dir, &secret.as_bytes()[..6]).is_empty());
    assert_eq!(std::fs::read_dir(cache.dir()).expect("dir").count(), 1);
    // A 3-byte key: an error quoting it is withheld whole; answers holding
    // it are refused like any other.
    std::env::set_var("CODETHREAD_TEST_KEY_SHORT", "k9Q");
    let short = ChatServer::start(
        Duration::ZERO,
        Arc::new(|id: &str, _| match id {
            "err" => raw(401, "", r#"{"error": {"message": "bad key k9Q"}}"#),
            _ => raw(200, "", &answer_with("k9Q")),
        }),
    );
    let mut o = opts(&short);
    o.api_key_env = Some("CODETHREAD_TEST_KEY_SHORT".into());
    let dir2 = tmp("llm-echo-short");
    let cache2 = Cache::open(&dir2.join("cache")).expect("cache");
    let js = jobs(&["err", "ans"]);
    let s = run(&js, &o, &cache2, &mut |_| {}).expect("run");
    let (_, msg) = failed_code(outcome(&s, "err")).expect("err");
    assert!(!msg.contains("k9Q") && msg.contains("withheld"), "{msg}");
    assert_eq!(
        failed_code(outcome(&s, "ans")).map(|c| c.0),
        Some("key_echoed")
    );
    assert!(files_containing(&dir2, b"k9Q").is_empty());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

/// A planted `OUT/cache` link is refused (a typed error, nothing written or
/// removed at the link's target), and a cache directory swapped for a link
/// after opening makes the store fail instead of writing through it.
#[test]
fn links_below_the_output_root_are_not_followed() {
    let dir = tmp("llm-link");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    // A stale temporary file of a dead process, in the sweep's name form.
    let stale = elsewhere.join(".ct-tmp-999999999-0.x.json");
    std::fs::write(&stale, b"keep me").expect("stale");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).expect("out");
    std::os::unix::fs::symlink(&elsewhere, out.join("cache")).expect("link");
    let e = Cache::open(&out.join("cache")).expect_err("a linked cache");
    assert!(e.to_string().contains("cache"), "{e}");
    assert!(stale.exists(), "a file outside OUT was removed");
    // Swapped after opening.
    let out2 = dir.join("out2");
    let cache = Cache::open(&out2.join("cache")).expect("cache");
    std::fs::remove_dir(out2.join("cache")).expect("rm");
    std::os::unix::fs::symlink(&elsewhere, out2.join("cache")).expect("link");
    let server = ChatServer::start(Duration::ZERO, Arc::new(|_: &str, _| Fault::None));
    let s = run(&jobs(&["a", "b"]), &opts(&server), &cache, &mut |_| {}).expect("run");
    for (id, o) in &s.outcomes {
        assert_eq!(failed_code(o).map(|c| c.0), Some("cache"), "{id}: {o:?}");
    }
    let names: Vec<_> = std::fs::read_dir(&elsewhere)
        .expect("dir")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names.len(), 1, "written through the link: {names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn nested(depth: usize) -> String {
    format!(
        r#"{{"choices": [{{"message": {{"role": "assistant", "content": "deep"}}}}], "x": {}1{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

/// Whatever the runner stores it reads back: answers nested deeper than
/// `MAX_ANSWER_DEPTH` are refused per request (`too_deep`, not cached);
/// the others are cached, found again by the next run and read back from
/// `output.jsonl` by `read_batch_output` (at 125/126 levels one of the two
/// failed before).
#[test]
fn deep_answers_are_bounded_and_what_is_stored_reads_back() {
    let script: Script = Arc::new(|id: &str, _| {
        let depth: usize = id.trim_start_matches('d').parse().unwrap_or(1);
        raw(200, "", &nested(depth))
    });
    let server = ChatServer::start(Duration::ZERO, script);
    let dir = tmp("llm-deep");
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    let ids = [
        "d1", "d30", "d61", "d62", "d63", "d100", "d124", "d125", "d126", "d127",
    ];
    let js = jobs(&ids);
    let s = run(&js, &opts(&server), &cache, &mut |_| {}).expect("run");
    let deepest_ok = codethread_llm::MAX_ANSWER_DEPTH - 1;
    for id in ids {
        let depth: usize = id[1..].parse().expect("n");
        // The body nests `depth` arrays inside its top object.
        if depth <= deepest_ok {
            assert!(
                matches!(outcome(&s, id), JobOutcome::Answered { .. }),
                "{id}: {:?}",
                outcome(&s, id)
            );
        } else {
            assert_eq!(
                failed_code(outcome(&s, id)).map(|c| c.0),
                Some("too_deep"),
                "{id}"
            );
        }
    }
    let before = server.total();
    let again = run(&js, &opts(&server), &cache, &mut |_| {}).expect("rerun");
    let answered = ids
        .iter()
        .filter(|i| i[1..].parse::<usize>().unwrap_or(0) <= deepest_ok)
        .count();
    assert_eq!(again.counts().0, answered, "{:?}", again.outcomes);
    assert_eq!(
        server.total() - before,
        ids.len() - answered,
        "cached answers re-sent"
    );
    let out = dir.join("output.jsonl");
    let lines: Vec<String> = output_lines(&js, &cache, &again)
        .iter()
        .map(Value::to_string)
        .collect();
    std::fs::write(&out, lines.join("\n")).expect("write");
    let back = read_batch_output(&out, None, Default::default()).expect("read");
    assert!(back.errors.is_empty(), "{:?}", back.errors);
    assert_eq!(back.answers.len(), answered);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ids with control characters (`\n`, `\r`, ESC, DEL, C1) are refused where
/// requests and answers are loaded (one error per line, the other lines
/// read) and by the runner (`bad_id`, never sent); printing escapes them.
#[test]
fn control_characters_in_ids_are_refused_and_escaped() {
    let bad = ["a\nb", "c\rd", "e\u{1b}[31mf", "g\u{7f}", "h\u{85}", "\t"];
    for b in bad {
        assert!(check_id(b).is_err(), "{b:?}");
        let p = printable_id(b);
        assert!(!p.chars().any(char::is_control), "{p:?}");
    }
    assert!(check_id("").is_err());
    for ok in ["django__django-11099", "o/r#1 é", "a-b_c.d"] {
        check_id(ok).expect(ok);
        assert_eq!(printable_id(ok), ok);
    }
    assert_eq!(printable_id("a\nb\\"), "a\\nb\\\\");
    let dir = tmp("llm-ids");
    let req = dir.join("requests.jsonl");
    let mut text = String::new();
    for id in bad.iter().chain(["fine-1", "fine-2"].iter()) {
        text.push_str(&json!({"custom_id": id, "messages": [{"role": "user", "content": "x"}], "metadata": {}}).to_string());
        text.push('\n');
    }
    std::fs::write(&req, &text).expect("write");
    let l = load_requests(&req, Default::default()).expect("load");
    let ids: Vec<&str> = l.items.iter().map(|r| r.custom_id.as_str()).collect();
    assert_eq!(ids, vec!["fine-1", "fine-2"]);
    assert_eq!(l.errors.len(), bad.len());
    for e in &l.errors {
        assert!(
            !e.to_string().contains('\n') && !e.to_string().contains('\u{1b}'),
            "{e}"
        );
    }
    // Answer files.
    let ans = dir.join("answers.jsonl");
    let mut text = String::new();
    for id in bad.iter().chain(["fine-1"].iter()) {
        text.push_str(&json!({"custom_id": id, "content": "x"}).to_string());
        text.push('\n');
    }
    std::fs::write(&ans, &text).expect("write");
    let o = read_batch_output(&ans, None, Default::default()).expect("read");
    assert_eq!(o.answers.len(), 1);
    assert_eq!(o.errors.len(), bad.len());
    // The runner never sends them (they are unsendable as headers).
    let server = ChatServer::start(Duration::ZERO, Arc::new(|_: &str, _| Fault::None));
    let cache = Cache::open(&dir.join("cache")).expect("cache");
    let mut ids: Vec<&str> = bad.to_vec();
    ids.push("fine-1");
    let s = run(&jobs(&ids), &opts(&server), &cache, &mut |_| {}).expect("run");
    for b in bad {
        assert_eq!(
            failed_code(outcome(&s, b)).map(|c| c.0),
            Some("bad_id"),
            "{b:?}"
        );
    }
    assert!(matches!(
        outcome(&s, "fine-1"),
        JobOutcome::Answered { attempts: 1 }
    ));
    assert_eq!(server.total(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
