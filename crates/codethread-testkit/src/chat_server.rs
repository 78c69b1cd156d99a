//! A small HTTP/1.1 server on loopback that speaks the OpenAI
//! chat-completions protocol (`POST .../chat/completions`), for tests and
//! benchmarks of the LLM runner, with faults injected by a script: 429 with
//! `Retry-After`, 500, a response slower than the client's timeout, a
//! dropped connection, malformed JSON, an answer echoing another
//! `custom_id`. It counts what it receives per `custom_id` (taken from the
//! `X-Codethread-Custom-Id` request header), so a test can assert that
//! every request was answered exactly once.
//!
//! One thread per connection, one request per connection
//! (`Connection: close`); it listens on `127.0.0.1` only and stops when
//! dropped.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the server does with one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// A normal 200 answer.
    None,
    /// 429 with `Retry-After: <seconds>`.
    TooMany(String),
    /// 500.
    ServerError,
    /// Sleep this long, then answer 200 (past the client's timeout).
    Slow(Duration),
    /// Close the connection without a response.
    Drop,
    /// 200 with a body that is not JSON.
    Malformed,
    /// 200 with a well-formed answer whose `custom_id` is another one.
    WrongId,
    /// 401 whose error message quotes the `Authorization` header received
    /// (as some gateways do): the client must not store it.
    EchoAuth,
    /// Any answer: this status, these extra header lines (each ending in
    /// `\r\n`), this body, where `{AUTH}` is replaced by the `Authorization`
    /// value received (without `Bearer `) and `{ID}` by the `custom_id`.
    Raw {
        /// HTTP status.
        status: u16,
        /// Extra header lines.
        headers: String,
        /// The body template.
        body: String,
    },
}

/// Decides the fault for the `attempt`-th (1-based) request of a `custom_id`.
pub type Script = Arc<dyn Fn(&str, u32) -> Fault + Send + Sync>;

/// What the server saw.
#[derive(Debug, Default, Clone)]
pub struct Seen {
    /// Requests per `custom_id`.
    pub attempts: HashMap<String, u32>,
    /// Normal 200 answers per `custom_id`.
    pub answered: HashMap<String, u32>,
    /// Every `Authorization` header value received (to check the key is sent).
    pub auth: Vec<String>,
    /// Request bodies per `custom_id` (the last one).
    pub bodies: HashMap<String, String>,
}

struct Shared {
    seen: Mutex<Seen>,
    total: AtomicUsize,
    stop: AtomicBool,
}

/// A running server.
pub struct ChatServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
}

impl ChatServer {
    /// Start on `127.0.0.1:<free port>`. `delay`: time before every
    /// answer; `script`: the fault of each request.
    ///
    /// # Panics
    /// When no loopback port can be bound.
    pub fn start(delay: Duration, script: Script) -> ChatServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        let shared = Arc::new(Shared {
            seen: Mutex::new(Seen::default()),
            total: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let sh = shared.clone();
        let handle = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if sh.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = conn else { continue };
                let (sh, script) = (sh.clone(), script.clone());
                std::thread::spawn(move || {
                    let _ = serve(stream, &sh, delay, &script);
                });
            }
        });
        ChatServer {
            addr,
            shared,
            handle: Some(handle),
        }
    }

    /// The base URL (`http://127.0.0.1:PORT/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Requests received so far.
    pub fn total(&self) -> usize {
        self.shared.total.load(Ordering::SeqCst)
    }

    /// A copy of the counts.
    pub fn seen(&self) -> Seen {
        self.shared
            .seen
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default()
    }
}

impl Drop for ChatServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn serve(stream: TcpStream, sh: &Shared, delay: Duration, script: &Script) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut r = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    r.read_line(&mut line)?;
    if line.is_empty() {
        return Ok(());
    }
    let mut len = 0usize;
    let (mut id, mut auth) = (String::new(), None::<String>);
    loop {
        let mut h = String::new();
        if r.read_line(&mut h)? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
            match k.as_str() {
                "content-length" => len = v.parse().unwrap_or(0).min(64 << 20),
                "x-codethread-custom-id" => id = v,
                "authorization" => auth = Some(v),
                _ => {}
            }
        }
    }
    // Read what arrives (at most the announced length), never allocate by it.
    let mut body = Vec::new();
    (&mut r).take(len as u64).read_to_end(&mut body)?;
    sh.total.fetch_add(1, Ordering::SeqCst);
    let attempt = {
        let mut s = sh
            .seen
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?;
        if let Some(a) = &auth {
            s.auth.push(a.clone());
        }
        s.bodies
            .insert(id.clone(), String::from_utf8_lossy(&body).into_owned());
        let a = s.attempts.entry(id.clone()).or_insert(0);
        *a += 1;
        *a
    };
    let fault = script(&id, attempt);
    std::thread::sleep(delay);
    let mut w = stream;
    let answer = |cid: &str| {
        serde_json::json!({
            "id": format!("chatcmpl-{cid}-{attempt}"),
            "object": "chat.completion",
            "custom_id": cid,
            "model": "loopback",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": format!("answer for {cid}")}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        })
        .to_string()
    };
    let (status, extra, text) = match &fault {
        Fault::None => {
            if let Ok(mut s) = sh.seen.lock() {
                *s.answered.entry(id.clone()).or_insert(0) += 1;
            }
            (200, String::new(), answer(&id))
        }
        Fault::TooMany(ra) => (
            429,
            format!("Retry-After: {ra}\r\n"),
            "{\"error\":{\"message\":\"rate limited\"}}".to_string(),
        ),
        Fault::ServerError => (
            500,
            String::new(),
            "{\"error\":{\"message\":\"boom\"}}".into(),
        ),
        Fault::Slow(d) => {
            std::thread::sleep(*d);
            (200, String::new(), answer(&id))
        }
        Fault::Drop => {
            let _ = w.shutdown(std::net::Shutdown::Both);
            return Ok(());
        }
        Fault::Malformed => (200, String::new(), "{\"choices\": [".to_string()),
        Fault::WrongId => (200, String::new(), answer(&format!("{id}-other"))),
        Fault::Raw {
            status,
            headers,
            body,
        } => {
            let key = auth.clone().unwrap_or_default();
            let key = key.strip_prefix("Bearer ").unwrap_or(&key).to_string();
            (
                *status,
                headers.clone(),
                body.replace("{AUTH}", &key).replace("{ID}", &id),
            )
        }
        Fault::EchoAuth => (
            401,
            String::new(),
            serde_json::json!({"error": {"message": format!("invalid key in {:?}", auth.clone().unwrap_or_default())}})
                .to_string(),
        ),
    };
    let head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        text.len()
    );
    // One write: a split head and body would meet Nagle's algorithm and
    // the client's delayed ACK.
    let _ = w.set_nodelay(true);
    w.write_all(format!("{head}{text}").as_bytes())?;
    w.flush()
}
