//! Grammars are cargo features (all on by default). This suite runs in
//! every feature set: CI also runs it with only `python` built
//! (`cargo test -p codethread-lang --no-default-features --features python
//! --test grammar_features`), where every other language must be a typed
//! error naming the feature that builds it, never a panic.

use codethread_lang::{parse, Lang, LangError};

fn built_by_features(lang: Lang) -> bool {
    match lang {
        Lang::Python => cfg!(feature = "python"),
        Lang::Go => cfg!(feature = "go"),
        Lang::Rust => cfg!(feature = "rust"),
        Lang::JavaScript => cfg!(feature = "javascript"),
        Lang::TypeScript | Lang::Tsx => cfg!(feature = "typescript"),
        Lang::Java => cfg!(feature = "java"),
        Lang::C => cfg!(feature = "c"),
        Lang::Cpp => cfg!(feature = "cpp"),
        Lang::Ruby => cfg!(feature = "ruby"),
        Lang::Php => cfg!(feature = "php"),
    }
}

#[test]
fn each_language_parses_exactly_when_its_feature_is_on() {
    let mut built = 0;
    for lang in Lang::ALL {
        let want = built_by_features(lang);
        assert_eq!(lang.grammar_built(), want, "{lang:?}");
        match parse(lang, b"x\n".to_vec()) {
            Ok(f) => {
                assert!(want, "{lang:?} parsed without its feature");
                assert_eq!(f.lang, lang);
                built += 1;
            }
            Err(LangError::GrammarNotBuilt { lang: l, feature }) => {
                assert!(!want, "{lang:?} refused with its feature on");
                assert_eq!(l, lang);
                assert_eq!(feature, lang.feature());
                let msg = LangError::GrammarNotBuilt { lang, feature }.to_string();
                assert!(msg.contains(feature), "{msg}");
            }
            Err(e) => panic!("{lang:?}: unexpected error {e}"),
        }
    }
    if cfg!(feature = "all-languages") {
        assert_eq!(built, Lang::ALL.len());
    }
}
