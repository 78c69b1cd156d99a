//! Targets on the real DEV pack must equal the independently built
//! expected_targets.jsonl (TARGET_RULES.md).

use std::collections::BTreeMap;

use codethread_chain::instance::load_instances;
use codethread_chain::source::SnapshotSource;
use codethread_chain::targets::localize;
use serde_json::Value;

#[test]
fn dev_targets_match_expected() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let insts = load_instances(&dev.join("instances.jsonl")).expect("instances");
    assert!(insts.errors.is_empty());
    let expected: BTreeMap<String, Value> =
        std::fs::read_to_string(dev.join("expected_targets.jsonl"))
            .expect("expected")
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| Some((v["instance_id"].as_str()?.to_string(), v)))
            .collect();
    assert_eq!(expected.len(), 41);
    let mut src = SnapshotSource::new(dev.join("files"));
    let (mut equal, mut sure_mismatch) = (0, Vec::new());
    let mut report = String::new();
    for inst in &insts.items {
        let e = &expected[&inst.instance_id];
        let mut want: Vec<String> = e["target_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect();
        want.sort();
        let want_neg = e["negative_case"].as_str().map(str::to_string);
        let unsure = e["unsure"].as_array().is_some_and(|a| !a.is_empty());
        let (mut got, got_neg) = match localize(inst, &mut src) {
            Ok(l) => (
                l.target_ids(),
                l.negative_case.map(|n| n.as_str().to_string()),
            ),
            Err(err) => (vec![format!("ERROR {err}")], None),
        };
        got.sort();
        if got == want && got_neg == want_neg {
            equal += 1;
        } else {
            report.push_str(&format!(
                "{} (unsure={unsure}):\n  want {want:?} {want_neg:?}\n  got  {got:?} {got_neg:?}\n",
                inst.instance_id
            ));
            if !unsure {
                sure_mismatch.push(inst.instance_id.clone());
            }
        }
    }
    println!("dev targets: {equal}/{} equal\n{report}", insts.items.len());
    assert!(
        sure_mismatch.is_empty(),
        "mismatches on sure instances: {sure_mismatch:?}\n{report}"
    );
    assert!(equal * 10 >= insts.items.len() * 9, "{equal}/41\n{report}");
}
