//! Running external programs (docker, git, tar, python, apt-get): output to a log file or
//! captured up to a bound, failures as [`SandboxError::Command`] with the tail of the output.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::error::SandboxError;

/// Output kept in memory from one captured command (the rest is cut, and said so).
pub(crate) const CAPTURE_LIMIT: usize = 64 << 20;

/// The command line of `cmd`, shortened for messages.
pub(crate) fn show(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        let a = a.to_string_lossy();
        s.push(' ');
        if a.len() > 80 {
            let mut cut = 77;
            while !a.is_char_boundary(cut) {
                cut -= 1;
            }
            s.push_str(&a[..cut]);
            s.push_str("...");
        } else {
            s.push_str(&a);
        }
        if s.len() > 300 {
            s.push_str(" ...");
            break;
        }
    }
    s
}

fn spawn_error(cmd: &Command, e: std::io::Error) -> SandboxError {
    SandboxError::Spawn {
        program: cmd.get_program().to_string_lossy().into_owned(),
        source: e,
    }
}

/// The last `lines` lines of at most the last 8 KiB of `path`.
pub(crate) fn tail_of(path: &Path, lines: usize) -> String {
    let Ok(mut f) = std::fs::File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let start = len.saturating_sub(8192);
    if f.seek(SeekFrom::Start(start)).is_err() {
        return String::new();
    }
    let mut buf = Vec::with_capacity((len - start) as usize);
    if f.take(8192).read_to_end(&mut buf).is_err() {
        return String::new();
    }
    tail_lines(&String::from_utf8_lossy(&buf), lines)
}

fn tail_lines(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Run `cmd` with stdout and stderr appended to `log`; an error names the command, its status
/// and the log, with the log's last lines.
pub(crate) fn run_logged(cmd: &mut Command, log: &Path) -> Result<(), SandboxError> {
    if let Some(dir) = log.parent() {
        std::fs::create_dir_all(dir).map_err(|e| SandboxError::io(dir, e))?;
    }
    let out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| SandboxError::io(log, e))?;
    let err = out.try_clone().map_err(|e| SandboxError::io(log, e))?;
    let status = cmd
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .status()
        .map_err(|e| spawn_error(cmd, e))?;
    if status.success() {
        Ok(())
    } else {
        Err(SandboxError::Command {
            command: show(cmd),
            status: status.to_string(),
            log: Some(log.to_path_buf()),
            tail: tail_of(log, 25),
        })
    }
}

/// Run `cmd` and capture its output (at most [`CAPTURE_LIMIT`] bytes of each stream are kept).
pub(crate) fn capture(cmd: &mut Command) -> Result<Output, SandboxError> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| spawn_error(cmd, e))?;
    let mut stderr = child.stderr.take().expect("piped");
    let err_thread = std::thread::spawn(move || read_bounded(&mut stderr));
    let mut stdout = child.stdout.take().expect("piped");
    let out = read_bounded(&mut stdout);
    let err = err_thread.join().unwrap_or_default();
    let status = child.wait().map_err(|e| spawn_error(cmd, e))?;
    Ok(Output {
        status,
        stdout: out,
        stderr: err,
    })
}

/// Read everything, keeping at most [`CAPTURE_LIMIT`] bytes (the rest is drained, so the
/// writer never blocks).
fn read_bounded(r: &mut impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => return kept,
            Ok(n) => {
                let room = CAPTURE_LIMIT.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
}

/// Run `cmd`, capture, and fail with its stderr's tail unless it succeeds; returns stdout.
pub(crate) fn check(cmd: &mut Command) -> Result<Vec<u8>, SandboxError> {
    let out = capture(cmd)?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(SandboxError::Command {
            command: show(cmd),
            status: out.status.to_string(),
            log: None,
            tail: tail_lines(&String::from_utf8_lossy(&out.stderr), 25),
        })
    }
}

/// Whether `program` is found on `PATH` (or is a path to an executable file).
pub(crate) fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let exec = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return exec(Path::new(program));
    }
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|d| exec(&d.join(program))))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_command_names_itself_and_its_output() {
        let mut c = Command::new("sh");
        c.args(["-c", "echo one; echo two >&2; exit 3"]);
        let e = check(&mut c).expect_err("exit 3");
        let s = e.to_string();
        assert!(s.contains("sh -c"), "{s}");
        assert!(s.contains("exit status: 3"), "{s}");
        assert!(s.contains("two"), "{s}");
    }

    #[test]
    fn logged_output_is_in_the_log_and_the_error() {
        let d = std::env::temp_dir().join(format!("ct-sandbox-cmd-{}", std::process::id()));
        let log = d.join("x.log");
        let mut c = Command::new("sh");
        c.args(["-c", "for i in 1 2 3 4 5; do echo line$i; done; exit 1"]);
        let e = run_logged(&mut c, &log).expect_err("exit 1");
        let s = e.to_string();
        assert!(s.contains("line5") && s.contains("x.log"), "{s}");
        assert!(std::fs::read_to_string(&log)
            .expect("test")
            .contains("line1"));
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn path_lookup() {
        assert!(on_path("sh"));
        assert!(!on_path("no-such-program-codethread"));
    }
}
