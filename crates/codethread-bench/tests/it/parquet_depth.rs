//! A `.parquet` dataset whose schema nests groups 100,000 deep is a typed
//! error naming the file, not a stack overflow of the whole process inside
//! the `parquet` crate's recursive schema conversion (issue 19).
#![cfg(feature = "parquet")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_bench::load_instances;

use codethread_testkit::parquet_nested as nested;

#[test]
fn a_deep_schema_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("ct-parquet-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for depth in [100_000usize, 5_000, 65] {
        let path = dir.join(format!("deep{depth}.parquet"));
        std::fs::write(&path, nested(depth)).unwrap();
        let err = match load_instances(&path, codethread_bench::SourceLimits::default()) {
            Err(e) => e.to_string(),
            Ok(l) => panic!("{depth}: loaded {} rows, {:?}", l.items.len(), l.errors),
        };
        assert!(err.contains(&format!("deep{depth}.parquet")), "{err}");
        assert!(err.contains("deeper than 64"), "{err}");
    }
    // Shallow schemas go on to the parquet crate (no rows here: zero
    // instances, or its own typed error), never a crash.
    let path = dir.join("shallow.parquet");
    std::fs::write(&path, nested(3)).unwrap();
    match load_instances(&path, codethread_bench::SourceLimits::default()) {
        Ok(l) => assert!(l.items.is_empty()),
        Err(e) => assert!(e.to_string().contains("shallow.parquet"), "{e}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
