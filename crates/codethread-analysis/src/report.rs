//! Reports: Markdown and CSV of every table, and SVG box plots like the paper's Figure 3
//! (per feature, HA-only vs AA-only wins; box = quartiles, line = median, whiskers = 5th and
//! 95th percentiles, dots beyond; a 0/1 feature such as `iec` as the share of 1s per group),
//! drawn with `plotters`' SVG backend.

use crate::features::{FeatureTable, FEATURES};
use crate::leaderboard::RunRate;
use crate::results::csv_cell;
use crate::tables::{PairedCell, Tables};
use codethread_stats::error::{AnalysisError, Result};
use codethread_stats::paired::{quantile_sorted, Interval};
use plotters::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn f(v: f64, d: usize) -> String {
    if v.is_finite() {
        format!("{v:.d$}")
    } else {
        String::new()
    }
}

fn ci(c: &Option<Interval>) -> (String, String) {
    match c {
        Some(i) => (f(i.lo, 2), f(i.hi, 2)),
        None => (String::new(), String::new()),
    }
}

fn p(v: f64) -> String {
    if v < 1e-4 {
        format!("{v:.2e}")
    } else {
        format!("{v:.4}")
    }
}

fn cell_csv(c: &PairedCell) -> String {
    let (lo, hi) = ci(&c.delta_ci);
    format!(
        "{},{},{},{},{},{},{},{},{},{},{}",
        c.n,
        c.ha_resolved,
        c.aa_resolved,
        f(c.ha_rate, 4),
        f(c.aa_rate, 4),
        f(c.delta, 4),
        lo,
        hi,
        c.ha_only,
        c.aa_only,
        c.mcnemar_p
    )
}

const CELL_HEAD: &str = "n,ha_resolved,aa_resolved,ha_rate,aa_rate,delta,delta_ci_lo,delta_ci_hi,ha_only,aa_only,mcnemar_p";

/// Table 2 as CSV (one row per benchmark × model; shared and full columns).
pub fn table2_csv(t: &Tables) -> String {
    let mut s = format!(
        "benchmark,model,{},{},hh_rate\n",
        CELL_HEAD
            .split(',')
            .map(|c| format!("shared_{c}"))
            .collect::<Vec<_>>()
            .join(","),
        CELL_HEAD
            .split(',')
            .map(|c| format!("full_{c}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    for r in &t.table2 {
        let _ = writeln!(
            s,
            "{},{},{},{},{}",
            csv_cell(&r.benchmark),
            csv_cell(&r.model),
            cell_csv(&r.shared),
            cell_csv(&r.full),
            r.hh_rate.map(|v| f(v, 4)).unwrap_or_default()
        );
    }
    s
}

/// Table 3 as CSV (one row per task type × model) followed by nothing else; see
/// [`table3_means_csv`] for the means.
pub fn table3_csv(t: &Tables) -> String {
    let mut s = format!("task_type,model,{CELL_HEAD}\n");
    for r in &t.table3 {
        let _ = writeln!(
            s,
            "{},{},{}",
            r.task_type.as_str(),
            csv_cell(&r.model),
            cell_csv(&r.cell)
        );
    }
    s
}

/// Mean Δ across models per task type as CSV.
pub fn table3_means_csv(t: &Tables) -> String {
    let mut s = String::from("task_type,models,mean_delta,ci_lo,ci_hi\n");
    for m in &t.table3_means {
        let (lo, hi) = ci(&m.ci);
        let _ = writeln!(
            s,
            "{},{},{},{},{}",
            m.task_type.map(|t| t.as_str()).unwrap_or("all"),
            m.models,
            f(m.mean_delta, 4),
            lo,
            hi
        );
    }
    s
}

/// Discordant cohort as CSV.
pub fn discordant_csv(t: &Tables) -> String {
    let mut s = String::from(
        "benchmark,model,n,ha_only,aa_only,ha_only_pct,aa_only_pct,discordant_pct,mcnemar_p\n",
    );
    for d in &t.discordant {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{}",
            csv_cell(&d.benchmark),
            csv_cell(&d.model),
            d.n,
            d.ha_only,
            d.aa_only,
            f(d.ha_only_pct, 4),
            f(d.aa_only_pct, 4),
            f(d.discordant_pct, 4),
            d.mcnemar_p
        );
    }
    s
}

/// Leaderboard rates as CSV (published, computed, difference, missing count).
pub fn run_rates_csv(rates: &[RunRate]) -> String {
    let mut s = String::from(
        "run,name,published,computed,diff_points,agrees,records,resolved,missing,unknown\n",
    );
    for r in rates {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{}",
            csv_cell(&r.run),
            csv_cell(&r.name),
            r.published.map(|v| v.to_string()).unwrap_or_default(),
            f(r.computed, 4),
            r.diff_points.map(|v| f(v, 4)).unwrap_or_default(),
            r.agrees,
            r.records,
            r.resolved,
            r.missing.len(),
            r.unknown.len()
        );
    }
    s
}

fn md_cell(c: &PairedCell) -> String {
    let (lo, hi) = ci(&c.delta_ci);
    format!(
        "{} | {} | {} | {:+.1} [{}, {}] | {}/{} | {}",
        c.n,
        f(c.ha_rate, 1),
        f(c.aa_rate, 1),
        c.delta,
        lo,
        hi,
        c.ha_only,
        c.aa_only,
        p(c.mcnemar_p)
    )
}

/// Where a caller's section goes in `report.md` ([`ReportSection`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionPlace {
    /// Right after the title line, before the reading guide (a note about the inputs).
    AfterTitle,
    /// After Tables 2 and 3, before the discordant cohort (a model fitted on the cohort,
    /// such as the pipeline's Table 4).
    AfterTables,
}

/// A section of `report.md` written by the caller: Markdown placed at [`SectionPlace`],
/// after a blank line. Sections of one place keep the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportSection {
    /// Where it goes.
    pub place: SectionPlace,
    /// Its Markdown, ending with a newline (a heading of its own if it needs one).
    pub markdown: String,
}

fn push_sections(s: &mut String, sections: &[ReportSection], place: SectionPlace) {
    for sec in sections.iter().filter(|sec| sec.place == place) {
        s.push('\n');
        s.push_str(&sec.markdown);
    }
}

/// The whole report as Markdown, with the caller's `sections` at their places.
pub fn markdown(
    t: &Tables,
    features: Option<&FeatureTable>,
    rates: Option<&[RunRate]>,
    sections: &[ReportSection],
) -> String {
    let mut s = String::from("# CodeThread analysis report\n");
    push_sections(&mut s, sections, SectionPlace::AfterTitle);
    s.push_str(
        "\nRates in percent; Δ = AA − HA in points with a seeded percentile-bootstrap 95 % CI; \
         HA-only/AA-only = discordant wins; p = exact two-sided McNemar.\n\n",
    );
    s.push_str("## Table 2 — PR2 resolve rate, HA vs AA\n\n");
    for (b, n) in &t.shared_n {
        let _ = writeln!(s, "- {b}: {n} instances shared by all models");
    }
    s.push_str("\n| benchmark | model | shared n | HA | AA | Δ [95% CI] | HA-only/AA-only | p | full n | HA | AA | Δ [95% CI] | HA-only/AA-only | p | HH |\n");
    s.push_str("|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|---|---|---:|---:|\n");
    for r in &t.table2 {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            r.benchmark,
            r.model,
            md_cell(&r.shared),
            md_cell(&r.full),
            r.hh_rate
                .map_or_else(|| "–".to_string(), |v| format!("{v:.1}"))
        );
    }
    s.push_str("\n## Table 3 — by task type (full sets, pooled over benchmarks)\n\n");
    s.push_str("| task type | model | n | HA | AA | Δ [95% CI] | HA-only/AA-only | p |\n|---|---|---:|---:|---:|---|---|---:|\n");
    for r in &t.table3 {
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            r.task_type.as_str(),
            r.model,
            md_cell(&r.cell)
        );
    }
    s.push_str("\n| task type | models | mean Δ | 95% CI |\n|---|---:|---:|---|\n");
    for m in &t.table3_means {
        let (lo, hi) = ci(&m.ci);
        let _ = writeln!(
            s,
            "| {} | {} | {:+.2} | [{lo}, {hi}] |",
            m.task_type.map(|t| t.as_str()).unwrap_or("all"),
            m.models,
            m.mean_delta
        );
    }
    if t.untyped_pairs > 0 {
        let _ = writeln!(
            s,
            "\n{} paired instances have no task type and are not in Table 3.",
            t.untyped_pairs
        );
    }
    push_sections(&mut s, sections, SectionPlace::AfterTables);
    s.push_str("\n## Discordant cohort\n\n| benchmark | model | n | HA-only | AA-only | HA-only % | AA-only % | discordant % | p |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for d in &t.discordant {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            d.benchmark,
            d.model,
            d.n,
            d.ha_only,
            d.aa_only,
            f(d.ha_only_pct, 1),
            f(d.aa_only_pct, 1),
            f(d.discordant_pct, 1),
            p(d.mcnemar_p)
        );
    }
    if let Some(ft) = features {
        s.push_str("\n## Figure 3 — features of HA-only vs AA-only wins\n\n");
        let _ = writeln!(s, "Each panel: {BOX_RULE}.\n");
        s.push_str("| feature | HA-only n | median | AA-only n | median | figure |\n|---|---:|---:|---:|---:|---|\n");
        for name in FEATURES {
            if let Some((ha, aa)) = ft.split(name) {
                let med = |v: &[f64]| box_stats(v).map(|b| f(b.median, 3)).unwrap_or_default();
                // write_report draws no figure for a feature without values.
                let fig = if ha.is_empty() && aa.is_empty() {
                    "no values".to_string()
                } else {
                    format!("![](figure3_{name}.svg)")
                };
                let _ = writeln!(
                    s,
                    "| {name} | {} | {} | {} | {} | {fig} |",
                    ha.len(),
                    med(&ha),
                    aa.len(),
                    med(&aa)
                );
            }
        }
    }
    if let Some(rates) = rates {
        s.push_str("\n## Leaderboard runs: published vs computed resolve rate\n\n| run | published | computed | Δ | records | missing |\n|---|---:|---:|---:|---:|---:|\n");
        for r in rates {
            let _ = writeln!(
                s,
                "| {}{} | {} | {} | {} | {} | {} |",
                r.run,
                if r.agrees { "" } else { " **(disagrees)**" },
                r.published.map(|v| v.to_string()).unwrap_or_default(),
                f(r.computed, 2),
                r.diff_points.map(|v| f(v, 2)).unwrap_or_default(),
                r.records,
                r.missing.len()
            );
        }
    }
    s
}

/// Five-number summary used by the box plots.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BoxStats {
    /// Observations.
    pub n: usize,
    /// Lower whisker: the 5th percentile (nearest rank: a value of the data).
    pub whisker_lo: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Upper whisker: the 95th percentile (nearest rank: a value of the data).
    pub whisker_hi: f64,
    /// Values beyond the whiskers (drawn as dots).
    pub outliers: usize,
}

/// The rule every Figure-3 panel follows, drawn under the plot.
pub const BOX_RULE: &str =
    "box: quartiles, bar: median; whiskers: 5th and 95th percentiles; dots: beyond";

/// The rule of a panel of a 0/1 feature ([`BINARY_FEATURES`]), drawn under the plot.
pub const SHARE_RULE: &str = "bar: share of instances with the feature (1), n below";

/// Features whose values are 0 or 1 (the input/error-contract drift judge's verdict): their
/// panels show the share of 1s per group ([`share_plot_svg`]), not a box.
pub const BINARY_FEATURES: [&str; 1] = ["iec"];

/// The nearest-rank `q` quantile of sorted values: the smallest value with at least a share
/// `q` of the values at or below it (always a value of the data).
fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    let rank = ((q * n as f64).ceil() as usize).clamp(1, n);
    sorted[rank - 1]
}

/// Box statistics of `v` (quartiles by linear interpolation, whiskers at the 5th and 95th
/// percentiles by nearest rank, as the paper's Figure 3 draws them); `None` when empty.
pub fn box_stats(v: &[f64]) -> Option<BoxStats> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let (q1, median, q3) = (
        quantile_sorted(&s, 0.25),
        quantile_sorted(&s, 0.5),
        quantile_sorted(&s, 0.75),
    );
    let (whisker_lo, whisker_hi) = (nearest_rank(&s, 0.05), nearest_rank(&s, 0.95));
    Some(BoxStats {
        n: s.len(),
        whisker_lo,
        q1,
        median,
        q3,
        whisker_hi,
        outliers: s
            .iter()
            .filter(|x| **x < whisker_lo || **x > whisker_hi)
            .count(),
    })
}

fn plot_err(name: &str) -> impl Fn(String) -> AnalysisError + '_ {
    move |m| AnalysisError::Plot {
        name: name.to_string(),
        message: m,
    }
}

/// One Figure-3 panel as an SVG document: feature `title`, y-axis label `y_desc`, groups
/// `(label, values)`.
pub fn box_plot_svg(title: &str, y_desc: &str, groups: &[(&str, &[f64])]) -> Result<String> {
    let err = plot_err(title);
    let stats: Vec<Option<BoxStats>> = groups.iter().map(|g| box_stats(g.1)).collect();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (b, g) in stats.iter().zip(groups) {
        if b.is_some() {
            for v in g.1 {
                lo = lo.min(*v);
                hi = hi.max(*v);
            }
        }
    }
    if !lo.is_finite() {
        lo = 0.0;
        hi = 1.0;
    }
    if hi - lo < 1e-12 {
        lo -= 0.5;
        hi += 0.5;
    }
    let pad = 0.08 * (hi - lo);
    let (lo, hi) = (lo - pad, hi + pad);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (360, 300)).into_drawing_area();
        let mut chart = panel(&root, title, groups.len(), lo..hi, y_desc).map_err(&err)?;
        for (g, (b, (label, _))) in stats.iter().zip(groups).enumerate() {
            let x = g as f64;
            let color = COLORS[g % COLORS.len()];
            let text = match b {
                Some(b) => format!("{label} (n={})", b.n),
                None => format!("{label} (n=0)"),
            };
            group_label(&root, &chart, x, lo, &text).map_err(&err)?;
            let Some(b) = b else { continue };
            let w = 0.25;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - w, b.q1), (x + w, b.q3)],
                    color.mix(0.35).filled(),
                )))
                .map_err(|e| err(e.to_string()))?;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - w, b.q1), (x + w, b.q3)],
                    color.stroke_width(1),
                )))
                .map_err(|e| err(e.to_string()))?;
            let lines = [
                vec![(x - w, b.median), (x + w, b.median)],
                vec![(x, b.q3), (x, b.whisker_hi)],
                vec![(x, b.q1), (x, b.whisker_lo)],
                vec![(x - w / 2.0, b.whisker_hi), (x + w / 2.0, b.whisker_hi)],
                vec![(x - w / 2.0, b.whisker_lo), (x + w / 2.0, b.whisker_lo)],
            ];
            // Values beyond the whiskers, one dot each.
            let (wl, wh) = (b.whisker_lo, b.whisker_hi);
            chart
                .draw_series(
                    groups[g]
                        .1
                        .iter()
                        .filter(|v| **v < wl || **v > wh)
                        .map(|v| Circle::new((x, *v), 3, color.stroke_width(1))),
                )
                .map_err(|e| err(e.to_string()))?;
            for (li, l) in lines.into_iter().enumerate() {
                let style = if li == 0 {
                    BLACK.stroke_width(2)
                } else {
                    color.stroke_width(1)
                };
                chart
                    .draw_series(std::iter::once(PathElement::new(l, style)))
                    .map_err(|e| err(e.to_string()))?;
            }
        }
        finish(&root, BOX_RULE).map_err(&err)?;
    }
    Ok(out)
}

/// The two groups' colours.
const COLORS: [RGBColor; 2] = [RGBColor(70, 120, 200), RGBColor(220, 110, 60)];

type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// One Figure-3 panel's frame on `root` (white): the caption, one x position per group (no
/// x labels: [`group_label`] writes them), the y axis over `y` with its description.
fn panel<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: &str,
    groups: usize,
    y: std::ops::Range<f64>,
    y_desc: &str,
) -> std::result::Result<Chart<'a, 'b>, String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let ng = groups.max(1) as f64;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5f64..(ng - 0.5), y)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(y_desc)
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(chart)
}

/// The panel's rule under the plot, then the document.
fn finish(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    rule: &str,
) -> std::result::Result<(), String> {
    root.draw(&Text::new(rule, (6, 288), ("sans-serif", 9).into_font()))
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// A group's label, centred under its position `x` in the x-label area (below the axis
/// line, whose value is `lo`).
fn group_label(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    chart: &Chart<'_, '_>,
    x: f64,
    lo: f64,
    text: &str,
) -> std::result::Result<(), String> {
    let (px, py) = chart.backend_coord(&(x, lo));
    let font: TextStyle = ("sans-serif", 12).into_font().into();
    let width = root
        .estimate_text_size(text, &font)
        .map(|(w, _)| w as i32)
        .unwrap_or(0);
    root.draw(&Text::new(text.to_string(), (px - width / 2, py + 8), font))
        .map_err(|e| e.to_string())
}

/// One panel of a 0/1 feature ([`BINARY_FEATURES`]) as an SVG document: per group the share
/// of values equal to 1 as a bar from 0, its percentage above it and `n` under the axis.
pub fn share_plot_svg(title: &str, groups: &[(&str, &[f64])]) -> Result<String> {
    let err = plot_err(title);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (360, 300)).into_drawing_area();
        let mut chart = panel(
            &root,
            title,
            groups.len(),
            0f64..1.1,
            "share with the feature",
        )
        .map_err(&err)?;
        for (g, (label, values)) in groups.iter().enumerate() {
            let x = g as f64;
            let n = values.len();
            group_label(&root, &chart, x, 0.0, &format!("{label} (n={n})")).map_err(&err)?;
            if n == 0 {
                continue;
            }
            let share = values.iter().filter(|v| **v == 1.0).count() as f64 / n as f64;
            let color = COLORS[g % COLORS.len()];
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.25, 0.0), (x + 0.25, share)],
                    color.mix(0.6).filled(),
                )))
                .map_err(|e| err(e.to_string()))?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{:.0}%", 100.0 * share),
                    (x - 0.1, share + 0.07),
                    ("sans-serif", 12).into_font(),
                )))
                .map_err(|e| err(e.to_string()))?;
        }
        finish(&root, SHARE_RULE).map_err(&err)?;
    }
    Ok(out)
}

/// Writes `dir/name` atomically; a symbolic link planted there is replaced, never followed.
fn write(dir: &Path, name: &str, text: &str, out: &mut Vec<PathBuf>) -> Result<()> {
    let p = codethread_lang::io::write_atomic_in(dir, Path::new(name), text.as_bytes())?;
    out.push(p);
    Ok(())
}

/// Writes `report.md` (with the caller's `sections`, see [`markdown`]), `table2.csv`,
/// `table3.csv`, `table3_means.csv`, `discordant.csv`, `tables.json`, and — when given —
/// `features.csv` with `figure3_<feature>.svg` per feature and `leaderboard_rates.csv`.
/// Returns the files written.
pub fn write_report(
    dir: &Path,
    t: &Tables,
    features: Option<&FeatureTable>,
    rates: Option<&[RunRate]>,
    sections: &[ReportSection],
) -> Result<Vec<PathBuf>> {
    codethread_lang::io::create_dir_all_nofollow(dir, Path::new(""))?;
    let mut out = Vec::new();
    write(
        dir,
        "report.md",
        &markdown(t, features, rates, sections),
        &mut out,
    )?;
    write(dir, "table2.csv", &table2_csv(t), &mut out)?;
    write(dir, "table3.csv", &table3_csv(t), &mut out)?;
    write(dir, "table3_means.csv", &table3_means_csv(t), &mut out)?;
    write(dir, "discordant.csv", &discordant_csv(t), &mut out)?;
    let json = serde_json::to_string_pretty(t).map_err(|e| AnalysisError::Invalid {
        origin: "tables.json".into(),
        message: e.to_string(),
    })?;
    write(dir, "tables.json", &json, &mut out)?;
    if let Some(ft) = features {
        write(dir, "features.csv", &ft.to_csv(), &mut out)?;
        for name in FEATURES {
            if let Some((ha, aa)) = ft.split(name) {
                if ha.is_empty() && aa.is_empty() {
                    continue;
                }
                let y_desc = if name.starts_with("d_") {
                    "AA − HA"
                } else {
                    "value"
                };
                let groups: [(&str, &[f64]); 2] = [("HA-only", &ha), ("AA-only", &aa)];
                let svg = if BINARY_FEATURES.contains(&name) {
                    share_plot_svg(name, &groups)?
                } else {
                    box_plot_svg(name, y_desc, &groups)?
                };
                write(dir, &format!("figure3_{name}.svg"), &svg, &mut out)?;
            }
        }
    }
    if let Some(r) = rates {
        write(dir, "leaderboard_rates.csv", &run_rates_csv(r), &mut out)?;
    }
    Ok(out)
}

/// Inputs of [`report_from_files`].
#[derive(Debug, Clone, Default)]
pub struct ReportRequest {
    /// Results file (CSV or JSONL, see [`crate::Results::from_path`]).
    pub results: PathBuf,
    /// Output folder.
    pub out: PathBuf,
    /// Optional leaderboard JSON for the published-vs-computed section.
    pub leaderboard: Option<PathBuf>,
    /// Optional IEC judgements (JSONL, see [`crate::features::load_iec_jsonl`]).
    pub iec: Option<PathBuf>,
    /// Optional metric values per stage (JSONL, see [`crate::features::MetricTable`]).
    pub metrics: Option<PathBuf>,
    /// Optional PR2 edit sets (JSONL, see [`crate::features::EditTable`]).
    pub edits: Option<PathBuf>,
    /// Bootstrap resamples.
    pub bootstrap_reps: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// The limits every input file is read under.
    pub limits: codethread_lang::io::SourceLimits,
}

/// Loads the files, builds the tables and the discordant features (metrics, edit sets and IEC
/// when given; difficulty always), and writes the report.
pub fn report_from_files(req: &ReportRequest) -> Result<Vec<PathBuf>> {
    let results = crate::results::Results::from_path(&req.results, req.limits)?;
    let tables = crate::tables::build_tables(
        &results,
        &crate::tables::TableOptions {
            bootstrap_reps: req.bootstrap_reps,
            seed: req.seed,
        },
    );
    let read = |p: &PathBuf| codethread_stats::input::read(p, req.limits);
    let name = |p: &PathBuf| p.display().to_string();
    let iec = match &req.iec {
        Some(p) => Some(crate::features::load_iec_jsonl(&name(p), &read(p)?)?),
        None => None,
    };
    let metrics = match &req.metrics {
        Some(p) => Some(crate::features::MetricTable::from_jsonl(
            &name(p),
            &read(p)?,
        )?),
        None => None,
    };
    let edits = match &req.edits {
        Some(p) => Some(crate::features::EditTable::from_jsonl(&name(p), &read(p)?)?),
        None => None,
    };
    let iec_fn = |k: &crate::features::InstanceKey| {
        iec.as_ref().and_then(|m| crate::features::lookup_iec(m, k))
    };
    let metrics_fn = |k: &crate::features::InstanceKey, s: crate::features::Stage| {
        metrics.as_ref().and_then(|m| m.get(k, s))
    };
    let edits_fn = |k: &crate::features::InstanceKey, c: crate::results::Condition| {
        edits.as_ref().and_then(|m| m.get(k, c))
    };
    let sources = crate::features::FeatureSources {
        metrics: &metrics_fn,
        edits: &edits_fn,
        iec: &iec_fn,
    };
    let features = crate::features::build_features(&results, &sources, &Default::default());
    let rates = match &req.leaderboard {
        Some(p) => Some(crate::leaderboard::Leaderboard::from_path(p, req.limits)?.run_rates(0.1)),
        None => None,
    };
    write_report(&req.out, &tables, Some(&features), rates.as_deref(), &[])
}

/// Loads a results file and builds the tables.
pub fn tables_from_file(
    path: &Path,
    bootstrap_reps: usize,
    seed: u64,
    limits: codethread_lang::io::SourceLimits,
) -> Result<Tables> {
    let results = crate::results::Results::from_path(path, limits)?;
    Ok(crate::tables::build_tables(
        &results,
        &crate::tables::TableOptions {
            bootstrap_reps,
            seed,
        },
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::results::{Condition, Outcome, Results};

    #[test]
    fn sections_go_at_their_places_and_none_leaves_the_report_as_it_was() {
        let mut r = Results::new();
        for (i, (ha, aa)) in [(true, false), (false, true), (true, true)]
            .iter()
            .enumerate()
        {
            for (c, resolved) in [(Condition::HA, *ha), (Condition::AA, *aa)] {
                r.push(Outcome {
                    benchmark: "b".into(),
                    model: "m".into(),
                    condition: c,
                    instance: format!("i{i}"),
                    resolved,
                    task_type: None,
                });
            }
        }
        let t = crate::tables::build_tables(
            &r,
            &crate::tables::TableOptions {
                bootstrap_reps: 10,
                seed: 1,
            },
        );
        let plain = markdown(&t, None, None, &[]);
        assert!(plain.starts_with("# CodeThread analysis report\n\nRates in percent;"));
        let sections = [
            ReportSection {
                place: SectionPlace::AfterTables,
                markdown: "## Table 4\n\nfit\n".into(),
            },
            ReportSection {
                place: SectionPlace::AfterTitle,
                markdown: "> note\n".into(),
            },
            ReportSection {
                place: SectionPlace::AfterTables,
                markdown: "## Table 5\n".into(),
            },
        ];
        let md = markdown(&t, None, None, &sections);
        assert!(md.starts_with("# CodeThread analysis report\n\n> note\n\nRates in percent;"));
        let at = plain.find("\n## Discordant cohort").unwrap();
        assert_eq!(
            md,
            format!(
                "# CodeThread analysis report\n\n> note\n{}\n## Table 4\n\nfit\n\n## Table 5\n{}",
                &plain["# CodeThread analysis report\n".len()..at],
                &plain[at..]
            )
        );
        // A model named like a heading does not move the sections.
        let mut r2 = Results::new();
        for c in [Condition::HA, Condition::AA] {
            r2.push(Outcome {
                benchmark: "b".into(),
                model: "x\n## Discordant cohort".into(),
                condition: c,
                instance: "i".into(),
                resolved: c == Condition::HA,
                task_type: None,
            });
        }
        let t2 = crate::tables::build_tables(
            &r2,
            &crate::tables::TableOptions {
                bootstrap_reps: 10,
                seed: 1,
            },
        );
        let md = markdown(&t2, None, None, &sections[..1]);
        let table4 = md.find("## Table 4").unwrap();
        let discordant = md.rfind("\n## Discordant cohort\n\n| benchmark").unwrap();
        assert!(md[..table4].contains("## Table 3"));
        assert!(table4 < discordant);
        assert_eq!(md[..table4].matches("## Table 4").count(), 0);
    }
}
