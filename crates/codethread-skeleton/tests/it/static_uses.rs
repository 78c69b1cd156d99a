//! A stub that removes the last use of a `static` function keeps one
//! (`(void)name;`): projects built with `-Werror` (micropython: its
//! `fun_pos_args_mismatch`, used only by the stubbed
//! `mp_setup_code_state_helper` of micropython-10095, made PR0 fail with
//! `-Werror=unused-function`) still build. Checked with gcc `-Wall -Werror`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use codethread_lang::{parse_file, Lang, ParseOptions};
use codethread_skeleton::{skeletonize, Options, Selector, Skeleton};

/// `src` read as a C file is (with the macro mask), skeletonized.
fn skel(src: &[u8], sel: &[Selector]) -> Skeleton {
    let file = parse_file(
        std::path::Path::new("t.c"),
        src.to_vec(),
        &ParseOptions::default(),
    )
    .unwrap();
    assert_eq!(file.lang, Lang::C);
    assert_eq!(file.parse_errors, 0);
    skeletonize(&file, sel, &Options::default()).unwrap()
}

const SRC: &str = "#define STATIC static
#define NORETURN __attribute__((noreturn))
static void helper(int x) { (void)x; }
STATIC NORETURN void fail_args(int n) {
    (void)n;
    for (;;) {
    }
}
static inline int ih(void) { return 1; }
static int twice(int a) { return 2 * a; }
int target(int a) {
    helper(a);
    if (a < 0) {
        fail_args(a);
    }
    return ih() + twice(a);
}
int second(int a) {
    return twice(a);
}
int other(void) {
    helper(1);
    return 0;
}
";

#[test]
fn stubs_keep_the_last_use_of_static_functions() {
    let sel = [
        Selector::Qualname("target".into()),
        Selector::Qualname("second".into()),
    ];
    let sk = skel(SRC.as_bytes(), &sel);
    let text = String::from_utf8(sk.text.clone()).unwrap();
    let target = sk.edits.iter().find(|e| e.function == "target").unwrap();
    // `helper` is still used by `other`; `ih` is inline; `fail_args` and
    // `twice` lose every use (`twice` also in `second`: kept once, in the
    // first stub).
    assert!(target.replacement.contains("(void)fail_args;"), "{text}");
    assert!(target.replacement.contains("(void)twice;"), "{text}");
    assert!(
        !text.contains("(void)helper;") && !text.contains("(void)ih;"),
        "{text}"
    );
    let second = sk.edits.iter().find(|e| e.function == "second").unwrap();
    assert!(!second.replacement.contains("(void)"), "{text}");
    if Command::new("gcc").arg("--version").output().is_err() {
        assert!(
            std::env::var_os(codethread_testkit::ENV).is_none(),
            "gcc missing"
        );
        return;
    }
    let dir =
        codethread_lang::io::create_temp_dir_in(&std::env::temp_dir(), "ct-static-uses").unwrap();
    let compile = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        Command::new("gcc")
            .args(["-Wall", "-Werror", "-c", "-o", "/dev/null"])
            .arg(&p)
            .output()
            .unwrap()
    };
    let o = compile("orig.c", SRC);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = compile("stubbed.c", &text);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Without the kept uses the same stubs do not build under -Werror.
    let bare = text
        .replace("(void)fail_args; ", "")
        .replace("(void)twice; ", "");
    let o = compile("bare.c", &bare);
    assert!(!o.status.success(), "the check must be able to fail");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_skeleton_with_kept_uses_is_a_fixed_point() {
    let sel = [Selector::Qualname("target".into())];
    let once = skel(SRC.as_bytes(), &sel);
    assert_eq!(once.edits.len(), 1);
    let twice = skel(&once.text, &sel);
    assert!(twice.edits.is_empty(), "{:?}", twice.edits);
    assert_eq!(twice.text, once.text);
}
