//! A `.parquet` dataset whose schema nests groups 100,000 deep is a typed
//! error naming the file, not a stack overflow of the whole process inside
//! the `parquet` crate's recursive schema conversion (issue 19).
#![cfg(feature = "parquet")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_bench::load_instances;

use codethread_testkit::{leb128, parquet_nested as nested, parquet_nested_encoded};

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

/// `num_children` written in encodings the `parquet` crate decodes to 1 but
/// a reader of 64-bit integers or 64-bit field ids does not: the guard reads
/// every integer as the crate does, so each deep schema is still refused
/// (a bypass overflowed the stack: exit 134).
#[test]
fn encodings_the_crate_truncates_cannot_hide_a_deep_schema() {
    let dir = std::env::temp_dir().join(format!("ct-parquet-enc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zigzag = |v: i64| ((v << 1) ^ (v >> 63)) as u64;
    let mut shapes: Vec<(&str, Vec<u8>)> = Vec::new();
    // An i64 whose low 32 bits are 1 and which is negative as an i64.
    for (name, v) in [
        ("neg64", -(1i64 << 32) + 1),
        ("pos64", (1i64 << 33) + 1),
        ("min64", i64::MIN + 1),
    ] {
        let mut b = vec![0x15];
        leb128(zigzag(v), &mut b);
        shapes.push((name, b));
    }
    // A long-form field id (delta 0) that truncates to 5 as an i16.
    for (name, id) in [("id65541", 65_541i64), ("idneg", -65_531)] {
        let mut b = vec![0x05];
        leb128(zigzag(id), &mut b);
        b.push(2);
        shapes.push((name, b));
    }
    // An 11-byte varint: the crate reads every byte, wrapping its shift.
    let mut b = vec![0x15];
    b.extend_from_slice(&[
        0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
    ]);
    shapes.push(("long", b));
    for (name, enc) in &shapes {
        for depth in [100_000usize, 65] {
            let path = dir.join(format!("{name}-{depth}.parquet"));
            std::fs::write(&path, parquet_nested_encoded(depth, enc)).unwrap();
            let err = match load_instances(&path, codethread_bench::SourceLimits::default()) {
                Err(e) => e.to_string(),
                Ok(l) => panic!(
                    "{name} {depth}: loaded {} rows, {:?}",
                    l.items.len(),
                    l.errors
                ),
            };
            assert!(err.contains("deeper than 64"), "{name} {depth}: {err}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
