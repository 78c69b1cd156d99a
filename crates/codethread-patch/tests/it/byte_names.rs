//! File names that are not UTF-8 stay distinct in localization: two new
//! files `\xff.py` and `\xfe.py` are two file edits with two labels (not one
//! lossy `\u{fffd}.py`), both recognised as Python by their own bytes, and
//! their functions are found. A modification of such a file is read from the
//! tree by its byte path.
#![allow(clippy::unwrap_used)]

use codethread_patch::{localize, parse_patch, LocalizeOptions, MemTree};

fn new_file(name: &[u8], body: &[u8]) -> Vec<u8> {
    let mut p = Vec::new();
    for (k, v) in [(&b"diff --git a/"[..], name), (b" b/", name)] {
        p.extend_from_slice(k);
        p.extend_from_slice(v);
    }
    p.extend_from_slice(b"\nnew file mode 100644\n--- /dev/null\n+++ b/");
    p.extend_from_slice(name);
    let lines: Vec<&[u8]> = body.split_inclusive(|&b| b == b'\n').collect();
    p.extend_from_slice(format!("\n@@ -0,0 +1,{} @@\n", lines.len()).as_bytes());
    for l in lines {
        p.push(b'+');
        p.extend_from_slice(l);
    }
    p
}

#[test]
fn non_utf8_names_stay_distinct_and_are_localized() {
    let mut patch = new_file(b"\xff.py", b"def f():\n    return 1\n");
    patch.extend(new_file(b"\xfe.py", b"def g():\n    return 2\n"));
    let p = parse_patch(&patch).unwrap();
    let loc = localize(&MemTree::new(), &p, &LocalizeOptions::default()).unwrap();
    let paths: Vec<&str> = loc.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, [r#""\xff.py""#, r#""\xfe.py""#]);
    assert!(loc.files.iter().all(|f| f.is_source), "{:?}", loc.files);
    let mut added: Vec<(String, String)> = loc
        .added_functions
        .iter()
        .map(|f| (f.path.clone(), f.qualname.clone()))
        .collect();
    added.sort();
    assert_eq!(
        added,
        [
            (r#""\xfe.py""#.to_string(), "g".to_string()),
            (r#""\xff.py""#.to_string(), "f".to_string())
        ]
    );
}

#[test]
fn a_modified_non_utf8_file_is_read_by_its_bytes() {
    let mut before = MemTree::new();
    before.insert(b"\xff.py".to_vec(), b"def f():\n    return 1\n".to_vec());
    let patch = b"diff --git a/\xff.py b/\xff.py\n--- a/\xff.py\n+++ b/\xff.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 3\n";
    let loc = localize(
        &before,
        &parse_patch(patch).unwrap(),
        &LocalizeOptions::default(),
    )
    .unwrap();
    assert_eq!(loc.targets.len(), 1, "{loc:?}");
    assert_eq!(loc.targets[0].qualname, "f");
    assert_eq!(loc.targets[0].path, r#""\xff.py""#);
}
