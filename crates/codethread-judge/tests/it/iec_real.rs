//! The IEC detector on the real pre-/post-images of shared/chains/dev: every modified target of
//! every gold patch is found on both sides (qualified-name lookup through codethread-lang works
//! in all languages) and the detector never fails on real code.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_judge::iec::detect_iec;
use codethread_lang::Lang;
use serde_json::Value;

#[test]
fn gold_patches_pre_post_images() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let text = std::fs::read_to_string(dev.join("expected_targets.jsonl")).unwrap();
    let (mut checked, mut flagged, mut missing) = (0, 0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let id = v["instance_id"].as_str().unwrap();
        for t in v["targets"].as_array().unwrap() {
            if t["status"].as_str() != Some("modified") {
                continue;
            }
            let path = t["path"].as_str().unwrap();
            let Some(lang) = Lang::from_path(path) else {
                continue;
            };
            let before =
                std::fs::read(dev.join("files").join(id).join("before").join(path)).unwrap();
            let after = std::fs::read(dev.join("files").join(id).join("after").join(path)).unwrap();
            let q = t["qualname"].as_str().unwrap().to_string();
            let r = detect_iec(lang, &before, &after, std::slice::from_ref(&q)).unwrap();
            let f = &r.functions[0];
            if !(f.in_human && f.in_agent) {
                missing.push(format!("{id} {q}"));
            }
            checked += 1;
            flagged += usize::from(r.flag);
            if r.flag {
                println!("{id} {}: {:?}", f.qualname, f.changes);
            }
            if id == "pallets__flask-5014" {
                // the gold patch adds `if not name: raise ValueError(...)` to Blueprint.__init__
                assert!(r.flag, "{:?}", f.changes);
            }
            // identical sources never differ
            assert!(!detect_iec(lang, &before, &before, &[q]).unwrap().flag);
        }
    }
    println!(
        "IEC on gold pre/post images: {checked} targets, {flagged} with contract changes, {} not found: {missing:?}",
        missing.len()
    );
    assert!(checked >= 80, "{checked}");
    // the detector sees at least some real contract changes, but not everywhere
    assert!(flagged > 0 && flagged < checked);
    // Every modified target is found on both sides (Flow-typed `.js`, e.g.
    // babel-13928, through the TypeScript grammar).
    assert!(missing.is_empty(), "not found: {missing:?}");
}

/// The same on the Java, C, C++, Ruby and PHP instances of `chains/dev_multilingual`: each
/// modified target is found on both sides (the language from the file name, its bytes and the
/// instance's `language` hint), identical sources never differ, and some real gold patches do
/// change a contract.
#[test]
fn multilingual_gold_patches_pre_post_images() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev_multilingual") else {
        return;
    };
    let text = std::fs::read_to_string(dev.join("expected_targets.jsonl")).unwrap();
    let (mut checked, mut flagged, mut missing) = (0, 0, Vec::new());
    let mut langs = std::collections::BTreeMap::<&str, usize>::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let id = v["instance_id"].as_str().unwrap();
        let hint = v["language"].as_str().and_then(Lang::from_name);
        for t in v["targets"].as_array().unwrap() {
            if t["status"].as_str() != Some("modified") {
                continue;
            }
            let path = t["path"].as_str().unwrap();
            let before =
                std::fs::read(dev.join("files").join(id).join("before").join(path)).unwrap();
            let after = std::fs::read(dev.join("files").join(id).join("after").join(path)).unwrap();
            let lang = Lang::for_source(path, &before, hint).unwrap();
            *langs.entry(lang.name()).or_default() += 1;
            let q = t["qualname"].as_str().unwrap().to_string();
            let r = detect_iec(lang, &before, &after, std::slice::from_ref(&q)).unwrap();
            let f = &r.functions[0];
            if !(f.in_human && f.in_agent) {
                missing.push(format!("{id} {q}"));
            }
            checked += 1;
            flagged += usize::from(r.flag);
            if r.flag {
                println!("{id} {}: {:?}", f.qualname, f.changes);
            }
            assert!(!detect_iec(lang, &before, &before, &[q]).unwrap().flag);
        }
    }
    println!(
        "IEC on multilingual gold pre/post images: {checked} targets {langs:?}, {flagged} with contract changes, {} not found: {missing:?}",
        missing.len()
    );
    assert_eq!(langs.len(), 5, "{langs:?}");
    assert!(flagged > 0 && flagged < checked, "{flagged}/{checked}");
    assert!(missing.is_empty(), "not found: {missing:?}");
}
