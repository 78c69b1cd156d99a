//! A `.parquet` dataset whose schema nests groups 100,000 deep is a typed
//! error naming the file, not a stack overflow of the whole process inside
//! the `parquet` crate's recursive schema conversion (issue 19).
#![cfg(feature = "parquet")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_chain::instance::load_instances;

fn varint(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// A Parquet file (Thrift compact footer written by hand) with no rows whose
/// schema is a chain of `depth` groups ending in an INT32 leaf.
fn nested(depth: usize) -> Vec<u8> {
    let mut f = vec![0x15, 2]; // version = 1
    f.push(0x19); // schema: list<struct>
    f.push(0xfc);
    varint(depth as u64 + 1, &mut f);
    for i in 0..=depth {
        if i == depth {
            f.extend_from_slice(&[0x15, 2]); // type = INT32
            f.extend_from_slice(&[0x25, 0]); // repetition_type = REQUIRED
            f.extend_from_slice(&[0x18, 1, b'x']); // name
        } else {
            if i > 0 {
                f.extend_from_slice(&[0x35, 0]); // repetition_type (field 3) = REQUIRED
                f.extend_from_slice(&[0x18, 1, b'g']); // name (field 4)
            } else {
                f.extend_from_slice(&[0x48, 1, b'g']); // name
            }
            f.extend_from_slice(&[0x15, 2]); // num_children = 1
        }
        f.push(0);
    }
    f.extend_from_slice(&[0x16, 0]); // num_rows = 0
    f.extend_from_slice(&[0x19, 0x0c]); // row_groups: empty
    f.push(0);
    let mut file = b"PAR1".to_vec();
    file.extend_from_slice(&f);
    file.extend_from_slice(&(f.len() as u32).to_le_bytes());
    file.extend_from_slice(b"PAR1");
    file
}

#[test]
fn a_deep_schema_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("ct-parquet-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for depth in [100_000usize, 5_000, 65] {
        let path = dir.join(format!("deep{depth}.parquet"));
        std::fs::write(&path, nested(depth)).unwrap();
        let err = match load_instances(&path, codethread_chain::SourceLimits::default()) {
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
    match load_instances(&path, codethread_chain::SourceLimits::default()) {
        Ok(l) => assert!(l.items.is_empty()),
        Err(e) => assert!(e.to_string().contains("shallow.parquet"), "{e}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
