//! A plain (stable-toolchain) fuzz driver for the chain importers: mutates
//! seed files with a deterministic xorshift generator and runs the four
//! properties of the fuzz targets (instances, predictions, reports, and the
//! LLM stage's decoders: runner answers, result and request files, judge
//! answers) on every mutant, for a number of seconds. No coverage feedback (use
//! cargo-fuzz on nightly for that); it runs anywhere.
//!
//! ```text
//! cargo run --release --no-default-features --bin driver -- [SECONDS] [SEED]
//! ```
//! Seeds: built-in rows of every supported format, plus, with
//! `CODETHREAD_SHARED` set, the first lines of the real dataset,
//! predictions and report files under `$CODETHREAD_SHARED/swebench`.

use std::io::BufRead;
use std::time::{Duration, Instant};

use codethread_bench_fuzz::{check_instances, check_llm, check_predictions, check_reports};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"\n",
    b"\r\n",
    b"null",
    b"true",
    b"1e999",
    b"-0",
    b"\\u0000",
    b"\\ud800",
    b"\"instance_id\": ",
    b"\"model_patch\": ",
    b"\"model_patch_b64\": \"",
    b"\"FAIL_TO_PASS\": ",
    b"\"fail_to_pass\": \"['a', ",
    b"\"patch\": [{\"filename\": \"a.py\", \"patch\": \"@@ -1 +1 @@\\n-a\\n+b\"}]",
    b"\"f2p_tests\": {\"t\": {}}",
    b"\"Instance ID\": ",
    b"\"instances\": ",
    b"\"predictions\": ",
    b"report: {",
    b"'tests_status': {'FAIL_TO_PASS': {'success': [], 'failure': []}}",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xe9",
    b"\"..\"",
    b"\"a/b\"",
    b"\"\"",
    b"0000000000000000000000000",
    b"sk-fuzz-key-0123456789",
    b"k9",
    b"\\u0073k-fuzz-key-0123456789",
    b"\"choices\": [{\"message\": {\"content\": \"x\"}}]",
    b"\"custom_id\": \"a\\nb\"",
    b"\"error\": \"vllm says no\"",
    b"\"labels\": [\"STYLE\"]",
    b"\"target_id\": \"m.py::f\"",
    b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    b"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    b"1e20",
    b"nan",
];

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = seeds[rng.below(seeds.len())].clone();
    for _ in 0..=rng.below(5) {
        let pos = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => v.insert(pos, rng.next() as u8),
            2 if !v.is_empty() => {
                let end = (pos + rng.below(24)).min(v.len());
                v.drain(pos.min(end)..end);
            }
            3 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                v.splice(pos..pos, t.iter().copied());
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let cut = rng.below(other.len() + 1);
                v.truncate(pos.min(v.len()));
                v.extend_from_slice(&other[cut..]);
            }
            5 => v.truncate(pos),
            _ => {
                // Duplicate a line (duplicate ids, repeated rows).
                let start = v[..pos.min(v.len())]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = v[start..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(v.len(), |i| start + i + 1);
                let line = v[start..end].to_vec();
                v.splice(start..start, line);
            }
        }
    }
    v
}

/// Built-in seeds: (target, bytes without the selector byte).
fn builtin() -> Vec<(u8, Vec<u8>)> {
    let gold = "diff --git a/m.py b/m.py\\n--- a/m.py\\n+++ b/m.py\\n@@ -1,2 +1,2 @@\\n def f():\\n-    return 1\\n+    return 2\\n";
    let mut v: Vec<(u8, String)> = vec![
        (0, format!("{{\"instance_id\": \"o__r-1\", \"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": \"{gold}\", \"FAIL_TO_PASS\": \"[\\\"t\\\"]\", \"PASS_TO_PASS\": \"[]\", \"version\": 1.0}}\n{{\"instance_id\": \"o__r-2\", \"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": \"\", \"FAIL_TO_PASS\": [\"a\"], \"PASS_TO_PASS\": null, \"language\": \"go\"}}\n")),
        (0, format!("{{\"instance_id\": \"p-1\", \"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": \"{gold}\", \"fail_to_pass\": \"['a', \\\"it's\\\", r'x\\\\y', ('t',)]\", \"pass_to_pass\": \"[]\", \"repo_language\": \"python\"}}\n")),
        (0, "{\"Instance ID\": \"pro-1\", \"Repository\": \"o/r\", \"Base Commit\": \"c\", \"FAIL_TO_PASS\": \"[]\", \"PASS_TO_PASS\": \"[]\"}\n".to_string()),
        (0, "{\"instance_id\": \"fb-1\", \"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": [{\"filename\": \"a.py\", \"status\": \"modified\", \"patch\": \"@@ -1 +1 @@\\n-a\\n+b\"}, {\"filename\": \"n.py\", \"status\": \"added\", \"patch\": \"@@ -0,0 +1 @@\\n+x\"}], \"FAIL_TO_PASS\": \"test_f[1,2], test_g\", \"PASS_TO_PASS\": \"\"}\n".to_string()),
        (0, "{\"org\": \"o\", \"repo\": \"r\", \"number\": 5, \"instance_id\": \"o__r-5\", \"base\": {\"sha\": \"c\"}, \"fix_patch\": \"\", \"f2p_tests\": {\"t1\": {}}, \"s2p_tests\": {}, \"n2p_tests\": {\"t2\": {}}, \"p2p_tests\": {\"t3\": {}}, \"resolved_issues\": [{\"title\": \"T\", \"body\": \"B\"}]}\n".to_string()),
        (1, "[\n {\"instance_id\": \"a\", \"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": \"\", \"FAIL_TO_PASS\": [], \"PASS_TO_PASS\": []}\n]".to_string()),
        (1, "{\"instances\": {\"a\": {\"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": \"\", \"FAIL_TO_PASS\": [], \"PASS_TO_PASS\": []}}}".to_string()),
        (0, format!("{{\"instance_id\": \"a\", \"model_name_or_path\": \"m\", \"model_patch\": \"{gold}\"}}\n{{\"instance_id\": \"b\", \"model_patch\": null}}\n{{\"instance_id\": \"c\", \"model_patch_b64\": \"Y2Fm6Qo=\", \"model_patch\": \"caf\\ufffd\"}}\n")),
        (1, format!("{{\"a\": {{\"model_name_or_path\": \"m\", \"model_patch\": {{\"instance_id\": \"a\", \"model_patch\": \"{gold}\"}}}}, \"b\": \"{gold}\"}}")),
        (1, "{\"predictions\": [{\"instance_id\": \"a\", \"patch\": \"x\"}]}".to_string()),
        (0, "{\"i\": {\"patch_is_None\": false, \"patch_exists\": true, \"patch_successfully_applied\": true, \"resolved\": false, \"tests_status\": {\"FAIL_TO_PASS\": {\"success\": [], \"failure\": [\"t\"]}, \"PASS_TO_PASS\": {\"success\": [\"p\"], \"failure\": []}}}}".to_string()),
        (1, "2024-08-25 10:00:00,000 - INFO - report: {'i': {'patch_is_None': False, 'patch_exists': True, 'patch_successfully_applied': True, 'resolved': True, 'tests_status': {'FAIL_TO_PASS': {'success': ['t'], 'failure': []}, 'PASS_TO_PASS': {'success': [], 'failure': []}}}}\n".to_string()),
    ];
    // Target of each seed: the first 7 are instances, the next 3 predictions, the last 2 reports.
    let mut out = Vec::new();
    for (k, (sel, text)) in v.drain(..).enumerate() {
        let target = match k {
            0..=6 => 0u8,
            7..=9 => 1,
            _ => 2,
        };
        out.push((target, [vec![sel], text.into_bytes()].concat()));
    }
    out
}

/// Seeds of the LLM target (first byte: the decoder, see `check_llm`).
fn llm_seeds() -> Vec<Vec<u8>> {
    let answer = r#"{"id": "c", "object": "chat.completion", "custom_id": "fuzz-id", "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "an answer"}}], "usage": {"prompt_tokens": 1}}"#;
    let mut out: Vec<Vec<u8>> = Vec::new();
    // Runner answers: status byte 0 (200, long key), 16 (200, short key), 8 (429), 3 (301).
    for (st, ra) in [(0u8, ""), (16, ""), (8, "1e20"), (9, "Sun, 06 Nov 1994 08:49:37 GMT"), (3, "")] {
        out.push([vec![0u8, st], ra.as_bytes().to_vec(), vec![0], answer.as_bytes().to_vec()].concat());
    }
    out.push([vec![0u8, 0], b"\0".to_vec(), r#"{"choices": [{"message": {"content": "key sk-fuzz-key-0123456789"}}]}"#.as_bytes().to_vec()].concat());
    out.push([vec![0u8, 5], b"\0".to_vec(), r#"{"error": {"message": "bad key Bearer sk-fuzz-key-0123456789 for you"}}"#.as_bytes().to_vec()].concat());
    // Result files.
    let results = [
        r#"{"id": "b1", "custom_id": "a", "response": {"status_code": 200, "request_id": "r1", "body": {"choices": [{"message": {"content": "A"}}]}}, "error": null}"#,
        r#"{"id": "vllm-1", "custom_id": "b", "response": {"status_code": 400, "request_id": "x"}, "error": "validation error"}"#,
        r#"{"custom_id": "d", "result": {"type": "succeeded", "message": {"content": [{"type": "text", "text": "D"}], "stop_reason": "max_tokens"}}}"#,
        r#"{"custom_id": "e", "result": {"type": "errored", "error": {"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}}}}"#,
        r#"{"instance_id": "h", "content": "H"}"#,
    ];
    out.push([vec![1u8, 0], results.join("\n").into_bytes()].concat());
    out.push([vec![1u8, 1], format!("[{}]", results.join(",")).into_bytes()].concat());
    // Request files.
    out.push([vec![2u8, 0], br#"{"custom_id": "a-1", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}], "metadata": {}}
{"custom_id": "a-2", "messages": [{"role": "user", "content": "u"}], "metadata": {"repo": "o/r"}}
"#.to_vec()].concat());
    // Judge answers.
    out.push([vec![3u8], br#"```json
{"targets": [{"target_id": "m.py::f", "labels": ["VALIDATION_ADDED", "RETURN_CHANGED"], "rationale": "x"}, {"target_id": "m.py::g", "labels": ["EQUIVALENT"], "rationale": "same"}]}
```"#.to_vec()].concat());
    out
}

/// The first `n` lines of a file (or the whole file when `n` is 0), if it exists.
fn head(path: &std::path::Path, n: usize) -> Option<Vec<u8>> {
    let f = std::fs::File::open(path).ok()?;
    if n == 0 {
        return std::fs::read(path).ok().filter(|b| b.len() < 4 << 20);
    }
    let mut out = Vec::new();
    for line in std::io::BufReader::new(f).split(b'\n').take(n) {
        out.extend(line.ok()?);
        out.push(b'\n');
    }
    Some(out)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let seed: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15);
    let mut seeds: [Vec<Vec<u8>>; 4] = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for (t, s) in builtin() {
        seeds[usize::from(t)].push(s);
    }
    seeds[3] = llm_seeds();
    if let Some(shared) = std::env::var_os("CODETHREAD_SHARED") {
        let sw = std::path::Path::new(&shared).join("swebench");
        let files: &[(usize, u8, &str, usize)] = &[
            (0, 0, "swebench_datasets/SWE-bench_Verified.test.jsonl", 3),
            (
                0,
                0,
                "swebench_datasets/SWE-bench_Multilingual.test.jsonl",
                3,
            ),
            (
                0,
                0,
                "java_swebench_java_v0/gold_multiswebench_java_50.jsonl",
                2,
            ),
            (
                0,
                1,
                "swebench_pro/pro_sample_instances_with_outcomes.json",
                0,
            ),
            (
                1,
                0,
                "tdad_qwen_mini_verified_first100/exp011_baseline_preds.jsonl",
                3,
            ),
            (
                1,
                0,
                "agent_preds_verified/omnicode_sweagent_claude-sonnet-4-6_python_bugfixing.jsonl",
                2,
            ),
            (
                2,
                0,
                "tdad_qwen_mini_verified_first100/exp011_baseline_harness_report.json",
                0,
            ),
            (
                2,
                1,
                "java_swebench_java_v0/sample_run_instance_gpt4o_dubbo-10638.log",
                0,
            ),
        ];
        for &(t, sel, rel, n) in files {
            match head(&sw.join(rel), n) {
                Some(b) => seeds[t].push([vec![sel], b].concat()),
                None => eprintln!("driver: seed {rel} not found"),
            }
        }
    }
    let mut rng = Rng(seed | 1);
    let t0 = Instant::now();
    let budget = Duration::from_secs(seconds);
    let mut runs = [0usize; 4];
    while t0.elapsed() < budget {
        for _ in 0..64 {
            let t = rng.below(4);
            let input = mutate(&mut rng, &seeds[t]);
            match t {
                0 => check_instances(&input),
                1 => check_predictions(&input),
                2 => check_reports(&input),
                _ => check_llm(&input),
            }
            runs[t] += 1;
        }
    }
    println!(
        "driver: {} mutated inputs ({} instances, {} predictions, {} reports, {} llm) from {} seeds in {:.0}s, seed {seed}: no property violated",
        runs.iter().sum::<usize>(),
        runs[0],
        runs[1],
        runs[2],
        runs[3],
        seeds.iter().map(Vec::len).sum::<usize>(),
        t0.elapsed().as_secs_f64()
    );
}
