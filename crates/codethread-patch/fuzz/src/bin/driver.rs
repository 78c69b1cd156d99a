//! A plain (stable-toolchain) fuzz driver: mutates seed inputs with a
//! deterministic xorshift generator and runs the three properties of the
//! fuzz targets on every mutant. No coverage feedback (use cargo-fuzz on
//! nightly for that); it runs anywhere.
//!
//! ```text
//! cargo run --release --no-default-features --bin driver -- [ITERATIONS] [SEED]
//! ```
//! Seeds: a few built-in patches, plus every gold patch of
//! `$CODETHREAD_SHARED/swebench/swebench_datasets/*.jsonl` when that is set.

use std::time::Instant;

use codethread_patch_fuzz::{check_apply, check_create, check_parse};

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
    b"diff --git a/x b/x\n", b"--- a/x\n", b"+++ b/x\n", b"@@ -1,3 +1,3 @@\n", b"@@ -0,0 +1 @@\n", b"\\ No newline at end of file\n",
    b"new file mode 100644\n", b"deleted file mode 100644\n", b"rename from x\n", b"rename to ../y\n", b"GIT binary patch\n",
    b"literal 0\nHcmV?d00001\n\n", b"Binary files a/x and b/x differ\n", b"\"a/\\303\\251\" ", b"\r\n", b"\n", b" ctx\n", b"-old\n", b"+new\n",
    b"/dev/null", b"\0\0",
];

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = seeds[rng.below(seeds.len())].clone();
    for _ in 0..=rng.below(4) {
        let pos = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => v.insert(pos, rng.next() as u8),
            2 if !v.is_empty() => {
                let end = (pos + rng.below(16)).min(v.len());
                v.drain(pos.min(end)..end);
            }
            3 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                v.splice(pos..pos, t.iter().copied());
            }
            4 => {
                // Change a digit (hunk counts / positions).
                if let Some(i) = (0..v.len()).map(|k| (k + pos) % v.len().max(1)).find(|&i| v.get(i).is_some_and(u8::is_ascii_digit)) {
                    v[i] = b'0' + rng.below(10) as u8;
                }
            }
            5 => {
                let other = &seeds[rng.below(seeds.len())];
                let cut = rng.below(other.len() + 1);
                v.truncate(pos.min(v.len()));
                v.extend_from_slice(&other[cut..]);
            }
            _ => {
                // Duplicate a line.
                let start = v[..pos.min(v.len())].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                let end = v[start..].iter().position(|&b| b == b'\n').map_or(v.len(), |i| start + i + 1);
                let line = v[start..end].to_vec();
                v.splice(start..start, line);
            }
        }
    }
    v
}

fn json_string_fields(line: &str, key: &str) -> Option<String> {
    // Minimal extraction of a JSON string field without a JSON dependency.
    let pat = format!("\"{key}\": \"");
    let start = line.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?).unwrap_or('?'));
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let iterations: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0x9E37_79B9_7F4A_7C15);
    let mut seeds: Vec<Vec<u8>> = vec![
        b"diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n".to_vec(),
        b"a\nb\nd\n\0\0--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n".to_vec(),
        b"x\ny\0\0z\ny\n".to_vec(),
        b"diff --git \"a/sp ace\" \"b/sp ace\"\nnew file mode 100755\n--- /dev/null\n+++ \"b/sp ace\"\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n".to_vec(),
    ];
    if let Some(shared) = std::env::var_os("CODETHREAD_SHARED") {
        let dir = std::path::Path::new(&shared).join("swebench/swebench_datasets");
        for name in ["SWE-bench_Verified.test.jsonl", "SWE-bench_Multilingual.test.jsonl"] {
            if let Ok(text) = std::fs::read_to_string(dir.join(name)) {
                for line in text.lines() {
                    if let Some(p) = json_string_fields(line, "patch") {
                        seeds.push(p.into_bytes());
                    }
                }
            }
        }
    }
    let mut rng = Rng(seed | 1);
    let t0 = Instant::now();
    for i in 0..iterations {
        let input = mutate(&mut rng, &seeds);
        match i % 3 {
            0 => check_parse(&input),
            1 => check_apply(&input),
            _ => check_create(&input),
        }
    }
    println!(
        "driver: {iterations} mutated inputs from {} seeds, no property violated ({:.1}s)",
        seeds.len(),
        t0.elapsed().as_secs_f64()
    );
}
