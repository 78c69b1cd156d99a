//! Throughput of the LLM runner against a loopback chat-completions server
//! that answers after a fixed delay (`codethread_testkit::chat_server`):
//! with N requests in flight the throughput should be ≈ N / delay, and the
//! runner's own cost per request (delay 0, N = 1: the whole round trip over
//! loopback, server included, plus hashing and the atomic cache write) is
//! an upper bound of its overhead. Each answer is written with
//! `codethread_lang::io::write_atomic`, which syncs the file: on a disk that
//! costs milliseconds per answer (paid in parallel by the N workers), so
//! `--scratch /dev/shm` measures the runner without the disk.
//!
//! ```text
//! cargo run --release --example llm_bench [-- --requests 400] [--scratch /dev/shm]
//! ```

use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use codethread::llm::Cache;
use codethread::llm::{run, Job, RunnerOptions};
use codethread_testkit::chat_server::{ChatServer, Fault};

/// Throughput of the LLM runner against a loopback chat server that answers after a fixed
/// delay: requests per second at several concurrencies, and the runner's own cost per request.
#[derive(Parser)]
struct Args {
    /// Requests per measurement.
    #[arg(long, default_value_t = 400)]
    requests: usize,
    /// Where the caches go (default: the system's temporary directory). The
    /// cache's atomic writes sync each file: on a tmpfs such as /dev/shm
    /// that costs nothing, which isolates the runner's own overhead.
    #[arg(long)]
    scratch: Option<std::path::PathBuf>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = Args::parse();
    let scratch = codethread::lang::io::create_temp_dir_in(
        &a.scratch.clone().unwrap_or_else(std::env::temp_dir),
        "llm-bench",
    )?;
    println!("| delay ms | N | requests | wall s | req/s | N/delay | per request ms |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    let mut run_no = 0;
    for delay_ms in [0u64, 20, 100] {
        let server = ChatServer::start(
            Duration::from_millis(delay_ms),
            Arc::new(|_: &str, _| Fault::None),
        );
        for n in [1usize, 4, 16, 64] {
            // Bound each measurement to a few seconds.
            let reqs = if delay_ms == 0 {
                a.requests
            } else {
                a.requests.min((n * 3000 / delay_ms as usize).max(n))
            };
            run_no += 1;
            let cache = Cache::open(&scratch.join(format!("cache-{run_no}")))?;
            let jobs: Vec<Job> = (0..reqs)
                .map(|i| Job {
                    custom_id: format!("r{i}"),
                    body: serde_json::json!({"model": "m", "messages": [{"role": "user", "content": format!("q{i}")}], "max_tokens": 8}),
                })
                .collect();
            let opts = RunnerOptions::default()
                .endpoint(server.base_url())
                .concurrency(n)
                .timeout(Duration::from_secs(30));
            let s = run(&jobs, &opts, &cache, &mut |_| {})?;
            let (_, answered, failed, _) = s.counts();
            assert_eq!((answered, failed), (reqs, 0));
            let wall = s.elapsed.as_secs_f64();
            let ideal = if delay_ms == 0 {
                f64::INFINITY
            } else {
                n as f64 / (delay_ms as f64 / 1000.0)
            };
            println!(
                "| {delay_ms} | {n} | {reqs} | {wall:.3} | {:.0} | {} | {:.3} |",
                reqs as f64 / wall,
                if ideal.is_finite() {
                    format!("{ideal:.0}")
                } else {
                    "-".into()
                },
                wall * 1000.0 * n as f64 / reqs as f64 - delay_ms as f64,
            );
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(())
}
