//! The size limit of every input the analysis crate reads: an explicit argument, so two callers
//! with different limits in one process (here: two threads at once) do not affect each other.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_analysis::SourceLimits;

#[test]
fn inputs_above_the_limit_are_refused_naming_file_and_limit() {
    let d = std::env::temp_dir().join(format!("ct-analysis-limit-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("matrix.csv");
    std::fs::write(&p, "instance,m1,m2\na,1,0\nb,0,1\nc,1,1\n").unwrap();
    let small = SourceLimits::with_max_file_bytes(16);
    std::thread::scope(|s| {
        // A caller with the default limit, running at the same time, is not affected.
        let other = s.spawn(|| {
            for _ in 0..200 {
                let lim = SourceLimits::default();
                assert!(
                    codethread_analysis::leaderboard::matrix_difficulty_report(&p, lim).is_ok()
                );
                assert!(codethread_stats::Frame::from_csv_path(&p, lim).is_ok());
            }
        });
        for _ in 0..200 {
            for e in [
                codethread_analysis::leaderboard::matrix_difficulty_report(&p, small)
                    .unwrap_err()
                    .to_string(),
                codethread_stats::Frame::from_csv_path(&p, small)
                    .unwrap_err()
                    .to_string(),
                codethread_analysis::Results::from_path(&p, small)
                    .unwrap_err()
                    .to_string(),
            ] {
                assert!(
                    e.contains("matrix.csv") && e.contains("limit of 16 bytes"),
                    "{e}"
                );
            }
        }
        other.join().unwrap();
    });
    std::fs::remove_dir_all(&d).unwrap();
}
