//! A batch reads only regular files under a size limit: FIFOs, devices and
//! oversized files are outcomes with a typed error naming them, never a hang
//! or a read without end, and the other files are still skeletonized.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use codethread_skeleton::{skeletonize_dir, FileOutcome, Options, Selector, SkeletonError};

fn within_a_minute(f: impl FnOnce() -> Vec<FileOutcome> + Send + 'static) -> Vec<FileOutcome> {
    codethread_testkit::deadline::within("a special file read as if it were a file", 60, f)
}

fn tree(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ct-skel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::write(dir.join("pkg/good.py"), "def f(x):\n    return x\n").unwrap();
    std::fs::write(dir.join("z.js"), "function g() { return 1; }\n").unwrap();
    dir
}

fn good_done(out: &[FileOutcome]) {
    for want in ["pkg/good.py", "z.js"] {
        let o = out
            .iter()
            .find(|o| o.rel_path == std::path::Path::new(want))
            .unwrap_or_else(|| panic!("no outcome for {want}"));
        assert_eq!(o.result.as_ref().unwrap().edits.len(), 1, "{want}");
    }
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_not_read() {
    let dir = tree("special");
    for f in ["pkg/pipe.py", "pipe.rs"] {
        assert!(
            codethread_testkit::deadline::mkfifo(&dir.join(f)),
            "mkfifo {f}"
        );
    }
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.py")).unwrap();
    std::os::unix::fs::symlink("/dev/urandom", dir.join("random.go")).unwrap();
    let d = dir.clone();
    let out = within_a_minute(move || {
        skeletonize_dir(&d, &[Selector::All], &Options::default()).unwrap()
    });
    good_done(&out);
    let refused: Vec<&FileOutcome> = out
        .iter()
        .filter(|o| matches!(o.result, Err(SkeletonError::Refused(_))))
        .collect();
    assert_eq!(refused.len(), 4, "{out:?}");
    for o in refused {
        let msg = o.result.as_ref().unwrap_err().to_string();
        assert!(msg.contains("not a regular file"), "{msg}");
        assert!(msg.contains(&*o.rel_path.to_string_lossy()), "{msg}");
    }
    // A FIFO as the root itself.
    let fifo = dir.join("pipe.rs");
    let out = within_a_minute(move || {
        skeletonize_dir(&fifo, &[Selector::All], &Options::default()).unwrap()
    });
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].rel_path, std::path::Path::new("pipe.rs"));
    assert!(matches!(out[0].result, Err(SkeletonError::Refused(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn oversized_files_are_refused() {
    let dir = tree("limit");
    std::fs::write(dir.join("big.py"), "def h():\n    pass\n".repeat(200)).unwrap();
    let out = skeletonize_dir(
        &dir,
        &[Selector::All],
        &Options::default().max_file_bytes(1000),
    )
    .unwrap();
    good_done(&out);
    let big = out
        .iter()
        .find(|o| o.rel_path == std::path::Path::new("big.py"))
        .unwrap();
    let msg = big.result.as_ref().unwrap_err().to_string();
    assert!(msg.contains("--max-file-bytes"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}
