//! Stage 4: the tables, the Table 4 regression (its regressors pruned by
//! `codethread_analysis::prune`), and the report with Table 4 as a section.

use std::path::Path;

use codethread_analysis::features::{FeatureTable, FEATURES};
use codethread_analysis::prune::{fit_pruned, PrunedFit};
use codethread_analysis::report::{write_report, ReportSection, SectionPlace};
use codethread_analysis::Condition;
use codethread_analysis::{build_tables, Results, TableOptions};
use codethread_stats::{LogitFit, LogitOptions};

use super::judges::IecSource;
use super::{write, Diagnostic, ReproduceConfig, ReproduceError, ReproduceSummary};

/// The note `report.md` opens with when the inputs are the bundled fixtures.
const BUNDLED_NOTE: &str =
    "> **Bundled fixtures.** These inputs are `fixtures/bench`: scripted agents on small \
     instances made to exercise every stage of the pipeline. The numbers below say \
     nothing about any real agent.\n\n";

/// Builds the tables, fits Table 4 on the paper's regressors the cohort can inform (each
/// left-out one a warning), and writes the report (`report/`: the analysis report with
/// Table 4 after Tables 2 and 3, and `regression.json`). The files go to `sum.files`.
///
/// # Errors
/// An output that cannot be written.
pub(crate) fn write_all(
    cfg: &ReproduceConfig,
    results: &Results,
    features: &FeatureTable,
    report_dir: &Path,
    iec_source: &IecSource,
    sum: &mut ReproduceSummary,
) -> Result<(), ReproduceError> {
    let tables = build_tables(
        results,
        &TableOptions::default()
            .bootstrap_reps(cfg.bootstrap_reps)
            .seed(cfg.seed),
    );
    let fit = fit_pruned(features, &FEATURES, &LogitOptions::default());
    sum.warnings
        .extend(fit.notes.iter().cloned().map(Diagnostic::Regression));
    let mut sections = Vec::new();
    if cfg.bundled_fixtures {
        sections.push(ReportSection {
            place: SectionPlace::AfterTitle,
            markdown: BUNDLED_NOTE.to_string(),
        });
    }
    sections.push(ReportSection {
        place: SectionPlace::AfterTitle,
        markdown: holdings_section(cfg, results, sum),
    });
    sections.push(ReportSection {
        place: SectionPlace::AfterTitle,
        markdown: labels_section(sum),
    });
    sections.push(ReportSection {
        place: SectionPlace::AfterTables,
        markdown: table4_section(cfg, &fit, iec_source),
    });
    sum.files = write_report(report_dir, &tables, Some(features), None, &sections)?;
    let reg_json = match &fit.error {
        Some(e) => serde_json::json!({ "error": e.to_string() }),
        None => serde_json::json!({ "fits": fit.fits }),
    };
    let reg_path = write(
        &cfg.out,
        "report/regression.json",
        &format!("{reg_json:#}\n"),
    )?;
    sum.files.push(reg_path);
    Ok(())
}

/// What a run lacks for a full analysis, per model and step (empty when it
/// lacks nothing): no model, no PR1, no PR1 the gate kept, a condition with
/// no PR2 outcome (and why: not submitted, no report).
pub(crate) fn missing(cfg: &ReproduceConfig, sum: &ReproduceSummary) -> Vec<String> {
    let mut out = Vec::new();
    if sum.models.is_empty() {
        out.push(format!(
            "no model: no directory under {}",
            cfg.agents.display()
        ));
    }
    for m in &sum.models {
        match sum.gate.get(m) {
            None | Some((_, 0)) => out.push(format!(
                "{m}: no PR1 (agents/{m}/pr1.jsonl or agents/{m}/pr1/<instance>/): HA and AA are counted only where a PR1 passed the gate"
            )),
            Some((0, judged)) => out.push(format!(
                "{m}: the gate kept none of its {judged} PR1s (gate/{m}.jsonl says why)"
            )),
            Some(_) => {
                for c in ["HA", "AA"] {
                    let s = sum
                        .submissions
                        .get(&(m.clone(), c.to_string()))
                        .copied()
                        .unwrap_or_default();
                    if s.graded + s.empty == 0 {
                        out.push(format!(
                            "{m} {c}: no PR2 outcome ({} not submitted: agents/{m}/pr2_{c}.jsonl or agents/{m}/pr2_{c}/<instance>/; {} without a report under {})",
                            s.not_submitted,
                            s.no_report,
                            cfg.reports.join(m).join(format!("pr2_{c}")).display()
                        ));
                    }
                }
            }
        }
    }
    out
}

/// What the report holds, at its top: per model the gate's kept / judged
/// PR1s and, per condition, the PR2 submissions graded, empty (counted
/// unresolved), not submitted and without a report; the HH rate when HH
/// reports were given; and what the run lacks.
fn holdings_section(cfg: &ReproduceConfig, results: &Results, sum: &ReproduceSummary) -> String {
    let mut md = String::from(
        "## What this report holds\n\n| model | PR1 kept / judged | condition | graded | empty (unresolved) | not submitted | no report |\n|---|---|---|---:|---:|---:|---:|\n",
    );
    for m in &sum.models {
        let (kept, judged) = sum.gate.get(m).copied().unwrap_or((0, 0));
        for c in ["HA", "AA"] {
            let s = sum
                .submissions
                .get(&(m.clone(), c.to_string()))
                .copied()
                .unwrap_or_default();
            md.push_str(&format!(
                "| {m} | {kept} / {judged} | {c} | {} | {} | {} | {} |\n",
                s.graded, s.empty, s.not_submitted, s.no_report
            ));
        }
    }
    let hh: Vec<bool> = results
        .rows()
        .iter()
        .filter(|o| o.condition == Condition::HH)
        .map(|o| o.resolved)
        .collect();
    if hh.is_empty() {
        md.push_str("\nHH: no reports of the chains' gold stacks (`reports/HH/`, the harness on `chain/exports/predictions_HH.jsonl`).\n");
    } else {
        let r = hh.iter().filter(|&&b| b).count();
        md.push_str(&format!(
            "\nHH: {r} of {} resolved ({:.1} %).\n",
            hh.len(),
            100.0 * r as f64 / hh.len() as f64
        ));
    }
    let lacks = missing(cfg, sum);
    if !lacks.is_empty() {
        md.push_str("\nWhat it lacks:\n\n");
        for l in lacks {
            md.push_str(&format!("- {l}\n"));
        }
    }
    md
}

/// Where the benchmark names and task types of the tables come from: the
/// instances per benchmark, and per task type the rule that gave it.
fn labels_section(sum: &ReproduceSummary) -> String {
    let mut md =
        String::from("## Benchmarks and task types\n\n| benchmark | instances |\n|---|---|\n");
    for (b, n) in &sum.benchmarks {
        md.push_str(&format!("| {b} | {n} |\n"));
    }
    md.push_str("\n| task type | instances | rule |\n|---|---|---|\n");
    for ((t, rule), n) in &sum.task_type_rules {
        md.push_str(&format!(
            "| {} | {n} | {rule} |\n",
            t.as_deref().unwrap_or("none (not in Table 3)")
        ));
    }
    md
}

/// Table 4 with the features left out of the model, the metric profile, the IEC source and
/// what the profile does not measure.
fn table4_section(cfg: &ReproduceConfig, fit: &PrunedFit, iec_source: &IecSource) -> String {
    let left_out_md = if fit.left_out.is_empty() {
        format!("All {} features are in the model.\n", FEATURES.len())
    } else {
        let mut t = format!(
            "Features left out of the model ({} of {}):\n\n",
            fit.left_out.len(),
            FEATURES.len()
        );
        for l in &fit.left_out {
            t.push_str(&format!("- `{}`: {}\n", l.feature, l.reason));
        }
        t
    };
    // Every (language, metric) the profile does not measure, and why
    // (codethread_metrics::UNMEASURED): a null or a tool's constant.
    let unmeasured = codethread_metrics::unmeasured(cfg.profile);
    let unmeasured_md = if unmeasured.is_empty() {
        "The profile measures every metric of every language.\n".to_string()
    } else {
        let mut t = String::from("Not measured under this profile (language, metric: why):\n\n");
        for (lang, metric, why) in &unmeasured {
            t.push_str(&format!("- {}, {metric}: {why}\n", lang.name()));
        }
        t
    };
    let error = fit.error.as_ref().map(ToString::to_string);
    format!(
        "{}\n{left_out_md}\nMetric features use the `{}` metric profile (`--profile`; docs/metrics.md). The IEC feature comes from {iec_source}.\n\n{unmeasured_md}",
        table4_markdown(&fit.fits, error.as_deref()),
        cfg.profile
    )
}

/// Table 4: the logistic regression of an HA-only win on the features.
fn table4_markdown(fits: &[LogitFit], error: Option<&str>) -> String {
    let mut s = String::from(
        "## Table 4 — logistic regression: P(HA-only win) on the discordant cohort\n\n",
    );
    if let Some(e) = error {
        s.push_str(&format!("Not estimable: {e}\n"));
        return s;
    }
    for fit in fits {
        let label = if fit.penalized_llf.is_some() {
            "Firth penalized likelihood"
        } else {
            "maximum likelihood"
        };
        s.push_str(&format!(
            "{label}: n = {}, df = {}, log-likelihood {:.4} (null {:.4}), McFadden R² = {:.4}, LR χ² = {:.3} (p = {:.4}), AIC {:.2}, BIC {:.2}, {} iterations{}\n\n",
            fit.nobs,
            fit.df_model,
            fit.llf,
            fit.llnull,
            fit.prsquared,
            fit.llr,
            fit.llr_pvalue,
            fit.aic,
            fit.bic,
            fit.iterations,
            if fit.converged { "" } else { ", not converged" }
        ));
        s.push_str("| term | coef | SE | z | p | odds ratio | OR 95% CI |\n|---|---:|---:|---:|---:|---:|---|\n");
        for (j, name) in fit.names.iter().enumerate() {
            let g = |v: &[f64]| v.get(j).copied().unwrap_or(f64::NAN);
            let ci = fit
                .odds_ratio_conf_int
                .get(j)
                .copied()
                .unwrap_or([f64::NAN; 2]);
            s.push_str(&format!(
                "| {name} | {} | {} | {:.3} | {:.4} | {} | [{}, {}] |\n",
                num(g(&fit.params)),
                num(g(&fit.bse)),
                g(&fit.zvalues),
                g(&fit.pvalues),
                num(g(&fit.odds_ratios)),
                num(ci[0]),
                num(ci[1])
            ));
        }
        for w in &fit.warnings {
            s.push_str(&format!("\n> {w}\n"));
        }
        s.push('\n');
    }
    s
}

/// Four decimals, or scientific notation for very large or small magnitudes.
fn num(v: f64) -> String {
    if v.is_finite() && v != 0.0 && !(1e-4..1e6).contains(&v.abs()) {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}
