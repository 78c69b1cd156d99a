//! The property checked on every fuzz input, shared by the libFuzzer target
//! and the stable driver.
#![allow(clippy::panic)]

use codethread_lang::{parse, Lang};
use codethread_skeleton::{restore, skeletonize, Options, ParseErrorPolicy, Selector};

/// The language of a first byte: bits 0-2 and 5-7 make the index into
/// [`Lang::ALL`] (modulo its length).
pub fn lang_of(head: u8) -> Lang {
    let idx = usize::from(head & 7) | (usize::from(head >> 5) << 3);
    Lang::ALL[idx % Lang::ALL.len()]
}

/// `head` with its language bits set to `lang` (the option bits 3 and 4
/// kept).
pub fn with_lang(head: u8, lang: Lang) -> u8 {
    let idx = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0) as u8;
    (head & 0b0001_1000) | (idx & 7) | ((idx >> 3) << 5)
}

/// First byte: language ([`lang_of`]), keep_docs (bit 3), policy (bit 4).
/// The rest: the source. Panics on a broken invariant.
pub fn check(data: &[u8]) {
    let Some((&head, src)) = data.split_first() else {
        return;
    };
    let lang = lang_of(head);
    let options = Options::default().keep_docs(head & 8 != 0).on_parse_errors(if head & 16 != 0 {
            ParseErrorPolicy::SkipAffected
        } else {
            ParseErrorPolicy::Refuse
        }).verify(true);
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
