//! Inputs are only regular files; report outputs are atomic and never written through a link.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_analysis::report::{report_from_files, write_report, ReportRequest};
use codethread_analysis::{build_tables, AnalysisError, Condition, Outcome, Results, TableOptions};
use codethread_stats::Frame;
use std::path::{Path, PathBuf};

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ct-analysis-safety-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn results() -> Results {
    let mut r = Results::new();
    for (mi, m) in ["m1", "m2"].iter().enumerate() {
        for i in 0..30usize {
            for (c, f) in [
                (Condition::HA, (i * 7 + mi) % 5 < 3),
                (Condition::AA, (i * 11 + mi) % 4 < 2),
            ] {
                r.push(Outcome {
                    benchmark: "B".into(),
                    model: (*m).into(),
                    condition: c,
                    instance: format!("B-{i}"),
                    resolved: f,
                    task_type: None,
                });
            }
        }
    }
    r
}

/// Runs `f` on another thread; fails the test if it does not answer in 10 s (a blocking read).
fn answers<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    codethread_testkit::deadline::within(what, 10, f)
}

#[cfg(unix)]
fn mkfifo(p: &Path) -> bool {
    codethread_testkit::deadline::mkfifo(p)
}

#[cfg(unix)]
#[test]
fn report_outputs_replace_planted_links_never_write_through_them() {
    let d = tmp("links");
    let out = d.join("out");
    let outside = d.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(d.join("results.csv"), results().to_csv()).unwrap();
    let req = ReportRequest {
        results: d.join("results.csv"),
        out: out.clone(),
        bootstrap_reps: 50,
        seed: 1,
        ..Default::default()
    };
    let first = report_from_files(&req).unwrap();
    assert!(first.len() >= 6, "{first:?}");
    // every output file kind (md, csv, json, svg) becomes a link to a file elsewhere
    for f in &first {
        let name = f.file_name().unwrap();
        std::fs::remove_file(f).unwrap();
        let target = outside.join(name);
        std::fs::write(&target, b"precious").unwrap();
        std::os::unix::fs::symlink(&target, f).unwrap();
    }
    let second = report_from_files(&req).unwrap();
    assert_eq!(first, second);
    for f in &second {
        let m = std::fs::symlink_metadata(f).unwrap();
        assert!(
            m.file_type().is_file(),
            "{} is not a regular file",
            f.display()
        );
        let target = outside.join(f.file_name().unwrap());
        assert_eq!(
            std::fs::read(&target).unwrap(),
            b"precious",
            "{} was written through",
            target.display()
        );
    }
    // write_report directly, too, and no temporary files are left behind
    let t = build_tables(&results(), &TableOptions::default());
    std::fs::remove_file(out.join("table2.csv")).unwrap();
    std::os::unix::fs::symlink(outside.join("table2.csv"), out.join("table2.csv")).unwrap();
    write_report(&out, &t, None, None, &[]).unwrap();
    assert_eq!(
        std::fs::read(outside.join("table2.csv")).unwrap(),
        b"precious"
    );
    for e in std::fs::read_dir(&out).unwrap() {
        let n = e.unwrap().file_name();
        assert!(
            !n.to_string_lossy().starts_with(".ct-tmp"),
            "{n:?} left behind"
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_with_a_typed_error_naming_them() {
    let d = tmp("special");
    let fifo = d.join("pipe.csv");
    assert!(mkfifo(&fifo));
    let zero = d.join("zero.csv");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let dir = d.join("a_dir.csv");
    std::fs::create_dir_all(&dir).unwrap();
    for p in [fifo, zero, dir] {
        let show = p.display().to_string();
        let q = p.clone();
        let e = answers("Results::from_path", move || {
            Results::from_path(&q, codethread_analysis::SourceLimits::default()).unwrap_err()
        });
        assert!(matches!(e, AnalysisError::File(_)), "{show}: {e:?}");
        assert!(
            e.to_string().contains(&show) && e.to_string().contains("not a regular file"),
            "{e}"
        );
        let q = p.clone();
        let e = answers("Frame::from_csv_path", move || {
            Frame::from_csv_path(&q, codethread_analysis::SourceLimits::default())
                .unwrap_err()
                .to_string()
        });
        assert!(e.contains("not a regular file"), "{e}");
        let q = p.clone();
        let e = answers("matrix_difficulty_report", move || {
            codethread_analysis::leaderboard::matrix_difficulty_report(
                &q,
                codethread_analysis::SourceLimits::default(),
            )
            .unwrap_err()
            .to_string()
        });
        assert!(e.contains("not a regular file"), "{e}");
        let q = p.clone();
        let e = answers("difficulty_report", move || {
            codethread_analysis::leaderboard::difficulty_report(
                &q,
                0.1,
                codethread_analysis::SourceLimits::default(),
            )
            .unwrap_err()
            .to_string()
        });
        assert!(e.contains("not a regular file"), "{e}");
        std::fs::write(d.join("results.csv"), results().to_csv()).unwrap();
        for field in ["metrics", "edits", "iec", "leaderboard"] {
            let mut req = ReportRequest {
                results: d.join("results.csv"),
                out: d.join("out"),
                bootstrap_reps: 10,
                ..Default::default()
            };
            match field {
                "metrics" => req.metrics = Some(p.clone()),
                "edits" => req.edits = Some(p.clone()),
                "iec" => req.iec = Some(p.clone()),
                _ => req.leaderboard = Some(p.clone()),
            }
            let e = answers("report_from_files", move || {
                report_from_files(&req).unwrap_err().to_string()
            });
            assert!(e.contains("not a regular file"), "{field}: {e}");
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

fn matrix_err(tag: &str, text: &str) -> String {
    let d = tmp(tag);
    let p = d.join("matrix.csv");
    std::fs::write(&p, text).unwrap();
    let e = codethread_analysis::leaderboard::matrix_difficulty_report(
        &p,
        codethread_analysis::SourceLimits::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains(&p.display().to_string()), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
    e
}

#[test]
fn a_matrix_flag_other_than_0_or_1_says_so_naming_line_and_column() {
    for (i, bad) in ["2", "yes", "0.5", "-1", "1e0x"].iter().enumerate() {
        let e = matrix_err(
            &format!("flag{i}"),
            &format!("instance,m1,m2\na,1,0\n\nb,0,{bad}\n"),
        );
        assert!(e.contains("must be 0 or 1"), "{bad}: {e}");
        assert!(!e.contains("is not a number"), "{bad}: {e}");
        assert!(e.contains("line 4"), "{bad}: {e}");
        assert!(e.contains("\"m2\""), "{bad}: {e}");
        assert!(e.contains(&format!("{bad:?}")), "{bad}: {e}");
    }
    // CRLF line ends count the same
    let e = matrix_err("crlf", "instance,m1\r\na,1\r\nb,3\r\n");
    assert!(e.contains("line 3") && e.contains("must be 0 or 1"), "{e}");
}

#[test]
fn duplicate_matrix_rows_are_refused_naming_both_lines() {
    for (i, text) in [
        "instance,m1,m2\na,1,0\nb,0,1\na,1,0\n", // identical duplicate
        "instance,m1,m2\na,1,0\nb,0,1\na,0,1\n", // conflicting duplicate
        "instance,m1\r\nx,1\r\n\r\ny,0\r\nx,\r\n", // CRLF, blank line, empty flag
    ]
    .iter()
    .enumerate()
    {
        let e = matrix_err(&format!("dup{i}"), text);
        assert!(e.contains("duplicate"), "{e}");
        let (first, second) = if i == 2 { (2, 5) } else { (2, 4) };
        assert!(
            e.contains(&format!("line {first}")) && e.contains(&format!("line {second}")),
            "{e}"
        );
    }
}
