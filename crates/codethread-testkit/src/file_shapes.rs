//! Large-file shapes shared by the memory suites of metrics, skeleton and
//! patch (issue 31, items 3 and 11): files that were refused (one unit of
//! 1 MB or more) or never chunked (PHP, minified lines).
//!
//! Each shape is a head, many small functions and a tail; a function's
//! text takes its number `n` and a value `k` (a patch's after-image
//! changes `k`).
//!
//! ```
//! use codethread_testkit::file_shapes::{file, ISSUE31};
//! for shape in ISSUE31 {
//!     let f = file(shape, 10_000, |n| n);
//!     assert!(f.text.len() >= 10_000 && f.functions > 10);
//! }
//! ```

/// The shapes: PHP functions, JavaScript and C minified on one line, a
/// Python class, a Java class, a C include guard, C++ namespaces, a Ruby
/// module holding a class.
pub const ISSUE31: [&str; 8] = [
    "php",
    "js1",
    "c1",
    "pyclass",
    "javaclass",
    "cguard",
    "cppns",
    "rbmodule",
];

/// One generated file.
#[derive(Debug, Clone)]
pub struct ShapeFile {
    /// A file name whose extension names the language.
    pub name: &'static str,
    /// The bytes.
    pub text: String,
    /// How many functions it holds.
    pub functions: usize,
}

/// The head and tail of `shape`, and its file name.
///
/// # Panics
/// On a shape not in [`ISSUE31`].
pub fn frame(shape: &str) -> (&'static str, &'static str, &'static str) {
    match shape {
        "php" => ("x.php", "<?php\n\n", ""),
        "js1" => ("x.js", "", "\n"),
        "c1" => ("x.c", "", "\n"),
        "pyclass" => (
            "x.py",
            "class A(object):\n    \"\"\"One class.\"\"\"\n\n",
            "",
        ),
        "javaclass" => ("A.java", "package p;\n\npublic class A {\n", "}\n"),
        "cguard" => ("x.h", "#ifndef A_H\n#define A_H\n\n", "#endif  /* A_H */\n"),
        "cppns" => (
            "x.cc",
            "namespace a {\nnamespace b {\n\n",
            "}  // namespace b\n}  // namespace a\n",
        ),
        "rbmodule" => ("x.rb", "module M\n  class C\n", "  end\nend\n"),
        other => panic!("unknown shape {other}"),
    }
}

/// Function `n` of `shape`, its arithmetic on `k`, with a comment above it
/// where the language's shape has one.
///
/// # Panics
/// On a shape not in [`ISSUE31`].
pub fn function(shape: &str, n: usize, k: usize) -> String {
    match shape {
        "php" => format!(
            "// f{n} doc\nfunction f{n}($a, $b) {{\n    $x = $a + $b * {k};\n    if ($x > $b) {{\n        return $x - $a;\n    }}\n    return $b;\n}}\n\n"
        ),
        "js1" => format!("function f{n}(a,b){{var x=a+b*{k};if(x>b){{return x-a}}return b}}"),
        "c1" => format!("int f{n}(int a,int b){{int x=a+b*{k};if(x>b)return x-a;return b;}}"),
        "pyclass" => format!(
            "    def f{n}(self, a, b):\n        \"\"\"Doc {n}.\"\"\"\n        x = a + b * {k}\n        if x > b:\n            return x - a\n        return b\n\n"
        ),
        "javaclass" => format!(
            "    /** f{n} doc */\n    public int f{n}(int a, int b) {{\n        int x = a + b * {k};\n        if (x > b) {{\n            return x - a;\n        }}\n        return b;\n    }}\n\n"
        ),
        "cguard" | "cppns" => format!(
            "/* f{n} doc */\nstatic int f{n}(int a, int b)\n{{\n    int x = a + b * {k};\n    if (x > b)\n        return x - a;\n    return b;\n}}\n\n"
        ),
        "rbmodule" => format!(
            "    # f{n} doc\n    def f{n}(a, b)\n      x = a + b * {k}\n      return x - a if x > b\n      b\n    end\n\n"
        ),
        other => panic!("unknown shape {other}"),
    }
}

/// `shape` of at least `size` bytes, function `n` computing with `k(n)`.
///
/// # Panics
/// On a shape not in [`ISSUE31`].
pub fn file(shape: &str, size: usize, k: impl Fn(usize) -> usize) -> ShapeFile {
    let (name, head, tail) = frame(shape);
    let mut text = String::from(head);
    let mut functions = 0usize;
    while text.len() + tail.len() < size {
        text.push_str(&function(shape, functions, k(functions)));
        functions += 1;
    }
    text.push_str(tail);
    ShapeFile {
        name,
        text,
        functions,
    }
}
