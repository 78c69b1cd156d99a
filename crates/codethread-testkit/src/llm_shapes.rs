//! Adversarial shapes of the LLM-stage checks and the analysis inputs, for
//! the doubling benchmark (`examples/scaling.rs`) and the debug-build ratio
//! tests: each generator takes a size `n` and returns input that grows
//! linearly with it.

/// A gold patch of `n` distinct added lines and a statement of about 400·n
/// bytes quoting every tenth of them (the `build --answers` leak check:
/// every gold line is looked up in the statement).
pub fn gold_lines_and_statement(n: usize) -> (String, String) {
    let mut gold = String::from("--- a/m.py\n+++ b/m.py\n@@ -1 +1,");
    gold.push_str(&format!("{n} @@\n"));
    let mut statement = String::from("## Task Overview\n");
    for i in 0..n {
        let line = format!("value_{i} = compute_{i}(alpha, beta, step={i})");
        gold.push_str(&format!("+    {line}\n"));
        statement.push_str(&format!(
            "Step {i} derives the value from the earlier results and checks them again. \
             It keeps the order of the inputs, rejects a missing entry with a clear error, \
             and records which source each value came from. When the inputs disagree the \
             later one wins and a note is kept for the report. Nothing is written before \
             every check of step {i} has passed.\n"
        ));
        if i % 10 == 0 {
            statement.push_str(&format!("`{line}`\n"));
        }
    }
    (gold, statement)
}

/// A CSV with an outcome `y`, `k` numeric columns and 3 rows: a design
/// with more parameters than rows (`TooFewRows`), which must be said in
/// time linear in `k`.
pub fn wide_csv(k: usize) -> String {
    let mut csv = String::from("y");
    for j in 0..k {
        csv.push_str(&format!(",x{j}"));
    }
    csv.push('\n');
    for i in 0..3 {
        csv.push_str(&format!("{}", i % 2));
        for j in 0..k {
            csv.push_str(&format!(",{}", (i * 7 + j) % 5));
        }
        csv.push('\n');
    }
    csv
}
