//! The property checked on every fuzz input, shared by the libFuzzer target
//! and the stable driver.
#![allow(clippy::panic)]

use codethread_lang::{parse, Lang};
use codethread_skeleton::{restore, skeletonize, Options, ParseErrorPolicy, Selector};

/// First byte: language (low 3 bits, mod 6), keep_docs (bit 3), policy (bit
/// 4). The rest: the source. Panics on a broken invariant.
pub fn check(data: &[u8]) {
    let Some((&head, src)) = data.split_first() else {
        return;
    };
    let lang = Lang::ALL[(head & 7) as usize % Lang::ALL.len()];
    let options = Options {
        keep_docs: head & 8 != 0,
        on_parse_errors: if head & 16 != 0 {
            ParseErrorPolicy::SkipAffected
        } else {
            ParseErrorPolicy::Refuse
        },
        verify: true,
    };
    let Ok(file) = parse(lang, src.to_vec()) else {
        return;
    };
    let sk = match skeletonize(&file, &[Selector::All], &options) {
        Ok(sk) => sk,
        Err(e) => {
            if file.parse_errors == 0 {
                panic!("clean {lang} input failed: {e}");
            }
            return;
        }
    };
    match restore(&sk.text, &sk.edits, src) {
        Ok(r) if r == src => {}
        other => panic!("restore is not exact: {other:?}"),
    }
    if file.parse_errors == 0 && !sk.edits.is_empty() {
        let Ok(re) = parse(lang, sk.text.clone()) else {
            return;
        };
        assert_eq!(re.parse_errors, 0, "clean {lang} input, broken skeleton");
        match skeletonize(&re, &[Selector::All], &options) {
            Ok(again) => assert!(again.edits.is_empty(), "{lang}: second run edited {:?}", again.edits),
            Err(e) => panic!("{lang}: second run failed: {e}"),
        }
    }
}
