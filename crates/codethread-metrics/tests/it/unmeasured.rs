//! `UNMEASURED` follows the engine: measuring one function with a branch in
//! every language under every profile, a metric is `null` exactly where the
//! table says "null", and a table entry for a constant (Java cognitive under
//! `paper`) is 0 on a function whose cognitive complexity is not 0.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_metrics::{analyze_parsed, unmeasured, Lang, Profile};

fn probe(lang: Lang) -> &'static [u8] {
    match lang {
        Lang::Python => b"def f(x):\n    if x:\n        return 1\n    return 2\n",
        Lang::Go => b"package p\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 2\n}\n",
        Lang::Rust => b"fn f(x: i32) -> i32 {\n    if x > 0 {\n        return 1;\n    }\n    2\n}\n",
        Lang::Java => b"class A {\n  int f(int x) {\n    if (x > 0) {\n      return 1;\n    }\n    return 2;\n  }\n}\n",
        Lang::Ruby => b"def f(x)\n  if x\n    return 1\n  end\n  2\nend\n",
        Lang::Php => b"<?php\nfunction f($x) {\n  if ($x) {\n    return 1;\n  }\n  return 2;\n}\n",
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            b"function f(x) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\n"
        }
        Lang::C | Lang::Cpp => b"int f(int x) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\n",
    }
}

#[test]
fn the_unmeasured_table_is_what_the_engine_does() {
    for profile in Profile::ALL {
        let table = unmeasured(profile);
        for lang in Lang::ALL {
            let file = codethread_lang::parse(lang, probe(lang).to_vec()).unwrap();
            let fm = analyze_parsed("probe", &file, profile);
            let f = fm
                .functions
                .iter()
                .find(|f| f.name == "f")
                .unwrap_or_else(|| panic!("{profile:?} {lang:?}: no record of f"));
            assert_eq!(f.cyclomatic, Some(2), "{profile:?} {lang:?}");
            let values = [
                ("cognitive", f.cognitive.map(f64::from)),
                ("halstead", f.halstead.as_ref().map(|h| h.volume)),
                ("lloc", f.lloc.map(f64::from)),
            ];
            for (metric, value) in values {
                let entry = table.iter().find(|(l, m, _)| *l == lang && *m == metric);
                match (entry, value) {
                    (None, Some(_)) => {}
                    (None, None) => {
                        panic!("{profile:?} {lang:?} {metric}: null but not in UNMEASURED")
                    }
                    (Some((.., why)), None) => {
                        assert!(
                            why.starts_with("null"),
                            "{profile:?} {lang:?} {metric}: {why}"
                        )
                    }
                    (Some((.., why)), Some(v)) => {
                        // A tool constant: 0 where one `if` makes it 1.
                        assert!(
                            !why.starts_with("null"),
                            "{profile:?} {lang:?} {metric}: {why}"
                        );
                        assert_eq!(v, 0.0, "{profile:?} {lang:?} {metric}");
                        assert!(f.notes.iter().any(|n| n == why), "{:?}", f.notes);
                    }
                }
            }
        }
    }
    assert!(unmeasured(Profile::Canonical).is_empty());
}
