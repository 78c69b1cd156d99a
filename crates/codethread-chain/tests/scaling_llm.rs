//! The statement leak check (`llm::check::check_leaks`, run by `chain build
//! --answers` on every imported statement) is linear in the gold patch plus
//! the statement: 4x both must take well under 16x (quadratic) the time.
//! Small sizes, so this runs in a debug build.

use codethread_chain::check::{check_leaks, CheckConfig};
use codethread_chain::TaskContext;
use codethread_testkit::adversarial::assert_subquadratic;
use codethread_testkit::llm_shapes::gold_lines_and_statement;

#[test]
fn gold_leak_check_is_linear() {
    let ctx = TaskContext {
        instance_id: "o__r-1".into(),
        repo: "o/r".into(),
        language: "python".into(),
        targets: vec![],
    };
    let cfg = CheckConfig::default();
    assert_subquadratic("gold leak check", 2000, |n| {
        let (gold, statement) = gold_lines_and_statement(n);
        let flags = check_leaks(&ctx, &statement, gold.as_bytes(), &cfg);
        assert_eq!(flags.len(), n.div_ceil(10));
    });
}
