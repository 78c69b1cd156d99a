//! Stable-toolchain fuzz driver: no coverage guidance, but the same check as
//! the libFuzzer target, on random mutations (byte flips, insertions of
//! syntax-heavy tokens, deletions, splices, truncations, CRLF/tab rewrites)
//! of real source files and on random bytes, for a fixed time.
//!
//! `cargo run --release --no-default-features --bin stable_driver -- SECONDS [CORPUS_DIR]`
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use codethread_lang::Lang;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&[u8]] = &[
    b"{", b"}", b"(", b")", b":", b"\n", b"\r\n", b"\t", b"    ", b"def f():", b"fn f() {", b"func f() {",
    b"function f() {", b"=> ", b"yield", b"async ", b"\"\"\"", b"'", b"\"", b"#", b"//", b"/*", b"*/",
    b"@dec\n", b"#[attr]\n", b"\xff", b"\xc3", b"\0", b"class A:\n", b"impl A {", b"lambda: ", b"`",
];

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] = rng.next() as u8;
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            2 if !v.is_empty() => {
                let end = (at + rng.below(64)).min(v.len());
                v.drain(at.min(end)..end);
            }
            3 => v.truncate(at),
            4 => {
                let s = rng.below(seed.len() + 1);
                let e = (s + rng.below(256)).min(seed.len());
                v.splice(at..at, seed[s..e].iter().copied());
            }
            5 => {
                v = String::from_utf8_lossy(&v).replace('\n', "\r\n").into_bytes();
            }
            _ => {
                v = String::from_utf8_lossy(&v).replace("    ", "\t").into_bytes();
            }
        }
    }
    v
}

fn main() {
    let mut args = std::env::args().skip(1);
    let secs: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(60);
    let corpus = args.next().map(PathBuf::from);
    let mut seeds: Vec<(Lang, Vec<u8>)> = Vec::new();
    if let Some(root) = corpus {
        let mut stack = vec![root];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Some(l) = Lang::from_path(&p) {
                    if let Ok(b) = std::fs::read(&p) {
                        // Keep inputs small: the first 4 KiB of each file.
                        seeds.push((l, b[..b.len().min(4096)].to_vec()));
                    }
                }
            }
        }
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(std::process::id()));
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut n = 0u64;
    while Instant::now() < deadline {
        let mut input = vec![rng.next() as u8];
        if seeds.is_empty() || rng.below(10) == 0 {
            let len = rng.below(512);
            input.extend((0..len).map(|_| rng.next() as u8));
        } else {
            let (lang, seed) = &seeds[rng.below(seeds.len())];
            input[0] = codethread_skeleton_fuzz::with_lang(input[0], *lang);
            input.extend(mutate(&mut rng, seed));
        }
        let r = std::panic::catch_unwind(|| codethread_skeleton_fuzz::check(&input));
        if r.is_err() {
            let path = format!("crash-{n}.bin");
            std::fs::write(&path, &input).unwrap();
            eprintln!("crash after {n} inputs; input written to {path}");
            std::process::exit(1);
        }
        n += 1;
    }
    println!("stable driver: {n} inputs in {secs}s, {} seeds, no crash", seeds.len());
}
