//! The size limit of every input the analysis crate reads (one test: the limit is process-wide).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[test]
fn inputs_above_the_limit_are_refused_naming_file_and_limit() {
    let d = std::env::temp_dir().join(format!("ct-analysis-limit-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("matrix.csv");
    std::fs::write(&p, "instance,m1,m2\na,1,0\nb,0,1\nc,1,1\n").unwrap();
    assert!(codethread_analysis::leaderboard::matrix_difficulty_report(&p).is_ok());
    codethread_analysis::set_max_file_bytes(16);
    for e in [
        codethread_analysis::leaderboard::matrix_difficulty_report(&p)
            .unwrap_err()
            .to_string(),
        codethread_analysis::Frame::from_csv_path(&p)
            .unwrap_err()
            .to_string(),
        codethread_analysis::Results::from_path(&p)
            .unwrap_err()
            .to_string(),
    ] {
        assert!(
            e.contains("matrix.csv") && e.contains("limit of 16 bytes"),
            "{e}"
        );
    }
    codethread_analysis::set_max_file_bytes(codethread_lang::io::DEFAULT_MAX_FILE_BYTES);
    assert!(codethread_analysis::leaderboard::matrix_difficulty_report(&p).is_ok());
    std::fs::remove_dir_all(&d).unwrap();
}
