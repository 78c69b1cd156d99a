//! Statement checks (`llm::check`): the offline statements of every real
//! DEV instance pass; a statement with a pasted original body or a pasted
//! gold-patch line is flagged.

use codethread_chain::instance::load_instances;
use codethread_chain::llm::check::{check_statement, CheckConfig};
use codethread_chain::llm::task_context;
use codethread_chain::source::SnapshotSource;
use codethread_chain::statement::offline_statement;
use codethread_chain::targets::localize;

#[test]
fn dev_offline_statements_pass_and_pasted_code_is_flagged() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let insts = load_instances(&dev.join("instances.jsonl")).expect("instances");
    let mut src = SnapshotSource::new(dev.join("files"));
    let cfg = CheckConfig::default();
    let (mut checked, mut body_flagged, mut gold_flagged, mut gold_checked) = (0, 0, 0, 0);
    for inst in &insts.items {
        let Ok(loc) = localize(inst, &mut src) else {
            continue;
        };
        if loc.targets.is_empty() {
            continue;
        }
        let ctx = task_context(inst, &loc);
        let s = offline_statement(&ctx);
        let flags = check_statement(&ctx, &s, inst.patch.as_bytes(), &cfg);
        assert!(flags.is_empty(), "{}: {:?}", inst.instance_id, flags);
        checked += 1;
        // The original body pasted under the first function.
        let pasted = format!("{s}\n{}\n", ctx.targets[0].original_source);
        let f = check_statement(&ctx, &pasted, inst.patch.as_bytes(), &cfg);
        if f.iter().any(|f| f.kind == "leak_body") {
            body_flagged += 1;
        } else {
            // Only a body too short for one body n-gram may pass.
            let toks =
                codethread_chain::llm::check::tokens(ctx.targets[0].original_source.as_bytes());
            assert!(
                toks.len() < 40,
                "{}: pasted body not flagged: {f:?}",
                inst.instance_id
            );
        }
        // The longest non-trivial added line of the gold patch pasted.
        let originals: Vec<String> = ctx
            .targets
            .iter()
            .flat_map(|t| {
                t.original_source
                    .lines()
                    .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            })
            .collect();
        let line = inst
            .patch
            .lines()
            .filter(|l| l.starts_with('+') && !l.starts_with("+++ "))
            .map(|l| l[1..].split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| l.len() >= 20 && !originals.contains(l))
            .max_by_key(|l| l.len());
        if let Some(line) = line {
            gold_checked += 1;
            let pasted = format!("{s}\nHint: write `{line}` somewhere.\n");
            let f = check_statement(&ctx, &pasted, inst.patch.as_bytes(), &cfg);
            assert!(
                f.iter().any(|f| f.kind == "leak_gold"),
                "{}: gold line not flagged: {line}",
                inst.instance_id
            );
            gold_flagged += 1;
        }
    }
    println!("dev: {checked} offline statements pass; pasted body flagged in {body_flagged}, pasted gold line flagged in {gold_flagged}/{gold_checked}");
    assert!(checked >= 30, "{checked}");
    assert!(body_flagged * 10 >= checked * 9, "{body_flagged}/{checked}");
}
