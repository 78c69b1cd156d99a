//! Issue 19: data after PHP's `__halt_compiler();` is measured as no
//! function, in both profiles and from bytes or from a file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_metrics::{analyze_file, analyze_source, AnalyzeOptions, Lang, Profile};

#[test]
fn no_phantom_function_after_halt_compiler() {
    let heads: [&[u8]; 3] = [
        b"<?php\nfunction a($x) { if ($x) { return 1; } return 0; }\n__halt_compiler();",
        b"<?php\nfunction a($x) { if ($x) { return 1; } return 0; }\n__HALT_COMPILER() ?>\n",
        b"<?php\r\nfunction a($x) { if ($x) { return 1; } return 0; }\r\n__halt_compiler();\r\n",
    ];
    let data: &[u8] = b"function phantom($y) { if ($y) { while ($y) { $y--; } } }\n";
    let dir = std::env::temp_dir().join(format!("ct-php-halt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (k, head) in heads.iter().enumerate() {
        let src = [*head, data].concat();
        let path = dir.join(format!("h{k}.php"));
        std::fs::write(&path, &src).unwrap();
        for profile in [Profile::Paper, Profile::Canonical] {
            let from_bytes = analyze_source(
                "x.php",
                Lang::Php,
                src.clone(),
                &AnalyzeOptions::new(profile),
            )
            .unwrap();
            let from_file = analyze_file(&path, "x.php", &AnalyzeOptions::new(profile)).unwrap();
            for m in [from_bytes, from_file] {
                let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
                assert_eq!(names, vec!["a"], "{profile:?} case {k}");
            }
        }
    }
}
