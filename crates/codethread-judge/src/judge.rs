//! The two LLM judges of the analysis, as data in and data out: request
//! builders, strict answer schemas, imports, and the tables built on them.
//!
//! * **Drift judge** (PR1): for each target function, how the agent's PR1
//!   differs in behaviour from the human PR1, labelled with the
//!   [`TAXONOMY`] (ten drift categories in three [`Group`]s, plus
//!   `EQUIVALENT` and `STYLE`). A label in the input/error-contract group
//!   sets the instance's IEC feature to 1 ([`iec_from_labels`]); agreement
//!   with the static detector ([`crate::iec::detect_iec`]) is Cohen's κ
//!   ([`agreement`]).
//! * **Compounding judge** (PR2): given a drifted target (labels and
//!   rationale), the AA chain's PR2 patch and the AA test outcome, did the
//!   drift survive PR2 (`survived` / `rewritten` / `removed`) and did it
//!   cause the failing test? [`compounding_table`] gives the shares on the
//!   HA-wins discordant cohort; [`touches_function`] is the deterministic
//!   check beside it (does the AA PR2 patch touch the drifted function's
//!   lines at all, from `codethread_patch::localize`).
//!
//! Requests are provider-neutral JSON lines `{custom_id, messages,
//! metadata}` ([`codethread_llm::LlmRequest`], so codethread-llm's
//! batch formats and online runner take them as they are). `custom_id`s fit every engine (`[A-Za-z0-9_-]{1,64}`). Answers
//! are read with [`parse_drift_answer`] / [`parse_compound_answer`]: one
//! JSON object (a single surrounding code fence is tolerated), every field
//! checked; a bad answer is an error for that item, never a default.
//! Definitions of the categories: `docs/analysis.md`.

use std::collections::{BTreeMap, BTreeSet};

use codethread_llm::{ChatMessage, LlmRequest};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The three groups of drift categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// Changes to what the function accepts and how it rejects input (IEC).
    InputContract,
    /// Changes to what the function returns and does (outputs, side effects).
    OutputsAndEffects,
    /// Edits beyond the stubbed targets.
    BeyondTargets,
    /// No drift (`EQUIVALENT`, `STYLE`).
    NoDrift,
}

/// One label of the taxonomy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Category {
    /// The label the judge writes (`VALIDATION_ADDED`, ...).
    pub code: &'static str,
    /// Its group.
    pub group: Group,
    /// The definition given to the judge (also in `docs/analysis.md`).
    pub definition: &'static str,
}

/// The drift taxonomy: ten categories in three groups, then `EQUIVALENT`
/// and `STYLE`.
pub const TAXONOMY: [Category; 12] = [
    Category {
        code: "VALIDATION_ADDED",
        group: Group::InputContract,
        definition: "The agent's version rejects (raises, returns an error, asserts on) some input the human version accepts.",
    },
    Category {
        code: "VALIDATION_REMOVED",
        group: Group::InputContract,
        definition: "The agent's version accepts some input the human version rejects: a check, guard or assertion is missing.",
    },
    Category {
        code: "ERROR_SIGNAL_CHANGED",
        group: Group::InputContract,
        definition: "For the same invalid input both versions fail, but differently: another exception or error type, error value, status code or message callers match on.",
    },
    Category {
        code: "DEFAULTS_CHANGED",
        group: Group::InputContract,
        definition: "Missing, null or optional inputs are handled differently: another default value, a fallback added or dropped, None/nil/undefined treated differently.",
    },
    Category {
        code: "RETURN_CHANGED",
        group: Group::OutputsAndEffects,
        definition: "For some valid input the result differs: value, type, shape, precision, or order of a returned collection.",
    },
    Category {
        code: "STATE_CHANGED",
        group: Group::OutputsAndEffects,
        definition: "Different mutation of arguments, object attributes, globals or caches (something mutated that was not, or no longer mutated).",
    },
    Category {
        code: "EFFECTS_CHANGED",
        group: Group::OutputsAndEffects,
        definition: "Different externally visible effects: files, network, subprocesses, logging, warnings, printed output, events or callbacks.",
    },
    Category {
        code: "CONTROL_CHANGED",
        group: Group::OutputsAndEffects,
        definition: "Different evaluation behaviour callers can observe: laziness versus eagerness, early exit, recursion or iteration limits, time or memory complexity class, concurrency.",
    },
    Category {
        code: "OUTSIDE_EDITS",
        group: Group::BeyondTargets,
        definition: "The agent changed code outside the stubbed target functions: other functions, classes, module-level code or other files.",
    },
    Category {
        code: "INTERFACE_CHANGED",
        group: Group::BeyondTargets,
        definition: "The agent added, removed or renamed parameters, helpers, imports or public names, or changed a signature, beyond re-implementing the bodies.",
    },
    Category {
        code: "EQUIVALENT",
        group: Group::NoDrift,
        definition: "Same observable behaviour for every input, possibly with a different implementation.",
    },
    Category {
        code: "STYLE",
        group: Group::NoDrift,
        definition: "Only naming, formatting, comments or documentation differ.",
    },
];

/// The category with `code` (exact, upper case).
pub fn category(code: &str) -> Option<&'static Category> {
    TAXONOMY.iter().find(|c| c.code == code)
}

/// A `custom_id` every engine accepts (`[A-Za-z0-9_-]{1,64}`): other
/// bytes become `-`; a longer id is cut and ends with 16 hex digits of a
/// SHA-256 of the whole, so distinct items keep distinct ids.
pub fn safe_custom_id(raw: &str) -> String {
    let s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if s.len() <= 64 && s == raw {
        return s;
    }
    use sha2::Digest;
    let d = sha2::Sha256::digest(raw.as_bytes());
    let hex: String = d.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let keep: String = s.chars().take(47).collect();
    format!("{keep}-{hex}")
}

/// One target function of a drift item: the human PR1 and the agent PR1
/// of it (the function's text in each post-image; empty when missing on
/// that side).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftTarget {
    /// `path::qualname`.
    pub target_id: String,
    /// The human PR1 (the original function).
    pub human: String,
    /// The agent's PR1 of the function.
    pub agent: String,
}

/// What the drift judge sees of one (benchmark, model, instance).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftItem {
    /// Benchmark.
    #[serde(default)]
    pub benchmark: String,
    /// Model that wrote the agent PR1.
    pub model: String,
    /// Instance id.
    pub instance_id: String,
    /// Language name.
    #[serde(default)]
    pub language: String,
    /// The targets.
    pub targets: Vec<DriftTarget>,
    /// Paths and functions the agent's PR1 changed outside the targets.
    #[serde(default)]
    pub outside_edits: Vec<String>,
    /// The whole files on both sides, for [`static_iec`] (not sent to the
    /// judge).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<DriftFile>,
}

fn metadata(kind: &str, benchmark: &str, model: &str, instance: &str) -> Value {
    json!({"judge": kind, "benchmark": benchmark, "model": model, "instance_id": instance})
}

fn msg(role: &str, content: String) -> ChatMessage {
    ChatMessage {
        role: role.to_string(),
        content,
    }
}

/// The drift judge's request for one item.
pub fn drift_request(item: &DriftItem) -> LlmRequest {
    let mut sys = String::from(
        "You compare two implementations of the same functions in a real repository: the HUMAN version \
(the original) and the AGENT version (written by a coding agent from a task description). Label how the \
agent version's behaviour differs, per function, with one or more categories:\n\n",
    );
    for c in &TAXONOMY {
        sys.push_str(&format!(
            "- {} ({}): {}\n",
            c.code,
            group_name(c.group),
            c.definition
        ));
    }
    sys.push_str(
        "\nEQUIVALENT and STYLE are used alone. Answer with ONE JSON object and nothing else:\n\
{\"targets\": [{\"target_id\": \"<id as given>\", \"labels\": [\"<CATEGORY>\", ...], \"rationale\": \"<one or two sentences>\"}]}\n\
with exactly one entry per function given.",
    );
    let mut u = format!(
        "Repository instance: {}\nLanguage: {}\n",
        item.instance_id, item.language
    );
    if !item.outside_edits.is_empty() {
        u.push_str(&format!(
            "The agent also changed, outside the target functions: {}\n",
            item.outside_edits.join(", ")
        ));
    }
    for t in &item.targets {
        u.push_str(&format!(
            "\n## {}\n### HUMAN\n```\n{}\n```\n### AGENT\n```\n{}\n```\n",
            t.target_id,
            t.human.trim_end(),
            if t.agent.trim().is_empty() {
                "<missing>"
            } else {
                t.agent.trim_end()
            }
        ));
    }
    LlmRequest {
        custom_id: safe_custom_id(&format!(
            "drift__{}__{}__{}",
            item.benchmark, item.model, item.instance_id
        )),
        messages: vec![msg("system", sys), msg("user", u)],
        metadata: metadata("drift", &item.benchmark, &item.model, &item.instance_id),
    }
}

fn group_name(g: Group) -> &'static str {
    match g {
        Group::InputContract => "input/error contract",
        Group::OutputsAndEffects => "outputs and side effects",
        Group::BeyondTargets => "beyond the stubbed targets",
        Group::NoDrift => "no drift",
    }
}

/// The drift labels of one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftLabel {
    /// `path::qualname`.
    pub target_id: String,
    /// Category codes (validated against [`TAXONOMY`]).
    pub labels: Vec<String>,
    /// The judge's reason.
    pub rationale: String,
}

impl DriftLabel {
    /// Whether any label is in `g`.
    pub fn has_group(&self, g: Group) -> bool {
        self.labels
            .iter()
            .any(|l| category(l).is_some_and(|c| c.group == g))
    }

    /// Whether any label is a drift (not `EQUIVALENT` / `STYLE`).
    pub fn drifted(&self) -> bool {
        self.labels
            .iter()
            .any(|l| category(l).is_some_and(|c| c.group != Group::NoDrift))
    }
}

/// The one JSON object of an answer (a single surrounding code fence is
/// removed).
fn answer_json(text: &str) -> Result<Value, String> {
    let t = text.trim();
    let t = match t.strip_prefix("```") {
        Some(rest) => {
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
            rest.strip_suffix("```")
                .ok_or("an unclosed code fence")?
                .trim()
        }
        None => t,
    };
    strict_json(t).map_err(|e| format!("not one JSON object: {e}"))
}

/// JSON text read into a [`Value`], refusing an object with a repeated key
/// (serde_json keeps the last one silently: `{"labels": [...], "labels":
/// [...]}` would let the second list win unseen). Nesting stays bounded by
/// serde_json's limit (128), so the value's drop cannot overflow the stack.
fn strict_json(text: &str) -> Result<Value, String> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Strict.deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(v)
}

/// A [`Value`] seed that fails on duplicate object keys.
#[derive(Clone, Copy)]
struct Strict;

impl<'de> serde::de::DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Strict {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = a.next_element_seed(Strict)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(k) = a.next_key::<String>()? {
            let v = a.next_value_seed(Strict)?;
            if out.contains_key(&k) {
                return Err(serde::de::Error::custom(format!("duplicate key {k:?}")));
            }
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

/// Read a drift answer for `item` strictly: one object with `targets`,
/// exactly one entry per target of the item (no others), labels from the
/// taxonomy, `EQUIVALENT` / `STYLE` alone, a string rationale.
pub fn parse_drift_answer(item: &DriftItem, text: &str) -> Result<Vec<DriftLabel>, AnswerError> {
    drift_answer(item, text).map_err(|message| AnswerError {
        instance: item.instance_id.clone(),
        message,
    })
}

fn drift_answer(item: &DriftItem, text: &str) -> Result<Vec<DriftLabel>, String> {
    let v = answer_json(text)?;
    let obj = v.as_object().ok_or("the answer is not a JSON object")?;
    if let Some(k) = obj.keys().find(|k| k.as_str() != "targets") {
        return Err(format!("unexpected field {k:?}"));
    }
    let arr = obj
        .get("targets")
        .and_then(Value::as_array)
        .ok_or("`targets` must be an array")?;
    let want: BTreeSet<&str> = item.targets.iter().map(|t| t.target_id.as_str()).collect();
    let mut got: BTreeMap<String, DriftLabel> = BTreeMap::new();
    for (i, e) in arr.iter().enumerate() {
        let e = e
            .as_object()
            .ok_or(format!("targets[{i}] is not an object"))?;
        if let Some(k) = e
            .keys()
            .find(|k| !["target_id", "labels", "rationale"].contains(&k.as_str()))
        {
            return Err(format!("targets[{i}]: unexpected field {k:?}"));
        }
        let id = e
            .get("target_id")
            .and_then(Value::as_str)
            .ok_or(format!("targets[{i}].target_id must be a string"))?;
        if !want.contains(id) {
            return Err(format!(
                "targets[{i}]: {id:?} is not a target of {:?}",
                item.instance_id
            ));
        }
        let labels: Vec<String> = e
            .get("labels")
            .and_then(Value::as_array)
            .ok_or(format!("targets[{i}].labels must be an array"))?
            .iter()
            .map(|l| {
                l.as_str()
                    .map(str::to_string)
                    .ok_or(format!("targets[{i}].labels: not a string"))
            })
            .collect::<Result<_, _>>()?;
        if labels.is_empty() {
            return Err(format!("targets[{i}].labels is empty"));
        }
        let mut distinct = BTreeSet::new();
        if let Some(d) = labels.iter().find(|l| !distinct.insert(l.as_str())) {
            return Err(format!("targets[{i}]: label {d:?} given twice"));
        }
        for l in &labels {
            if category(l).is_none() {
                return Err(format!("targets[{i}]: unknown label {l:?}"));
            }
        }
        if labels.len() > 1 && labels.iter().any(|l| l == "EQUIVALENT" || l == "STYLE") {
            return Err(format!(
                "targets[{i}]: EQUIVALENT and STYLE must stand alone"
            ));
        }
        let rationale = e
            .get("rationale")
            .and_then(Value::as_str)
            .ok_or(format!("targets[{i}].rationale must be a string"))?;
        if got
            .insert(
                id.to_string(),
                DriftLabel {
                    target_id: id.to_string(),
                    labels,
                    rationale: rationale.to_string(),
                },
            )
            .is_some()
        {
            return Err(format!("{id:?} is labelled twice"));
        }
    }
    if let Some(m) = want.iter().find(|w| !got.contains_key(**w)) {
        return Err(format!("no label for {m:?}"));
    }
    Ok(item
        .targets
        .iter()
        .filter_map(|t| got.remove(&t.target_id))
        .collect())
}

/// The imported drift labels of one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftRecord {
    /// Benchmark.
    pub benchmark: String,
    /// Model.
    pub model: String,
    /// Instance id.
    pub instance: String,
    /// Per target.
    pub targets: Vec<DriftLabel>,
    /// Any target labelled in the input/error-contract group.
    pub iec: bool,
}

/// A drift record from parsed labels.
pub fn drift_record(item: &DriftItem, labels: Vec<DriftLabel>) -> DriftRecord {
    DriftRecord {
        benchmark: item.benchmark.clone(),
        model: item.model.clone(),
        instance: item.instance_id.clone(),
        iec: labels.iter().any(|l| l.has_group(Group::InputContract)),
        targets: labels,
    }
}

/// The IEC feature from drift records, keyed `(benchmark, model,
/// instance)` like codethread-analysis's `features::load_iec_jsonl`: 1 when any target
/// has a label of the input/error-contract group.
pub fn iec_from_labels(records: &[DriftRecord]) -> BTreeMap<(String, String, String), bool> {
    records
        .iter()
        .map(|r| {
            (
                (r.benchmark.clone(), r.model.clone(), r.instance.clone()),
                r.iec,
            )
        })
        .collect()
}

/// Agreement of two binary raters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Agreement {
    /// Items rated by both.
    pub n: usize,
    /// Both 1.
    pub both: usize,
    /// Judge 1, detector 0.
    pub judge_only: usize,
    /// Judge 0, detector 1.
    pub detector_only: usize,
    /// Both 0.
    pub neither: usize,
    /// Observed agreement.
    pub observed: f64,
    /// Cohen's κ = (p_o − p_e) / (1 − p_e); `None` when p_e = 1 (both
    /// raters constant and equal: κ undefined).
    pub kappa: Option<f64>,
}

/// Cohen's κ between the judge's IEC and the static detector's, over the
/// keys both have.
pub fn agreement(
    judge: &BTreeMap<(String, String, String), bool>,
    detector: &BTreeMap<(String, String, String), bool>,
) -> Agreement {
    let (mut a, mut b, mut c, mut d) = (0usize, 0usize, 0usize, 0usize);
    for (k, j) in judge {
        let Some(s) = detector.get(k) else { continue };
        match (*j, *s) {
            (true, true) => a += 1,
            (true, false) => b += 1,
            (false, true) => c += 1,
            (false, false) => d += 1,
        }
    }
    let n = a + b + c + d;
    let nf = n as f64;
    let po = if n == 0 {
        f64::NAN
    } else {
        (a + d) as f64 / nf
    };
    let pe = if n == 0 {
        f64::NAN
    } else {
        ((a + b) as f64 * (a + c) as f64 + (c + d) as f64 * (b + d) as f64) / (nf * nf)
    };
    let kappa = (n > 0 && pe < 1.0).then(|| (po - pe) / (1.0 - pe));
    Agreement {
        n,
        both: a,
        judge_only: b,
        detector_only: c,
        neither: d,
        observed: po,
        kappa,
    }
}

/// What the compounding judge sees of one drifted target in an AA chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompoundItem {
    /// Benchmark.
    #[serde(default)]
    pub benchmark: String,
    /// Model.
    pub model: String,
    /// Instance id.
    pub instance_id: String,
    /// The drifted target and its drift labels.
    pub drift: DriftLabel,
    /// The AA chain's PR2 patch (unified diff, relative to base + PR0 +
    /// agent PR1).
    pub aa_pr2_patch: String,
    /// Whether the AA chain's PR2 resolved the issue.
    pub aa_resolved: bool,
    /// Tests that failed in the AA chain.
    #[serde(default)]
    pub failing_tests: Vec<String>,
}

/// What became of a drift in PR2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Survival {
    /// PR2 kept the drifted behaviour.
    Survived,
    /// PR2 changed the drifted code so the behaviour differs from both.
    Rewritten,
    /// PR2 removed the drift (restored the human behaviour or deleted the code).
    Removed,
}

/// The compounding judge's request for one item.
pub fn compound_request(item: &CompoundItem) -> LlmRequest {
    let sys = "You analyse a chain of two pull requests written by a coding agent. PR1 re-implemented a \
function and drifted from the original behaviour as described. PR2 then addressed a follow-up issue. Decide \
whether the drift survived PR2 and whether it caused the failing test. Answer with ONE JSON object and \
nothing else: {\"survival\": \"survived\" | \"rewritten\" | \"removed\", \"caused_failure\": \"yes\" | \"no\", \
\"rationale\": \"<one or two sentences>\"}. survived: PR2 keeps the drifted behaviour; rewritten: PR2 changes \
the drifted code so that its behaviour differs from both PR1 and the original; removed: PR2 restores the \
original behaviour or deletes the drifted code. caused_failure is yes only when the drifted behaviour is why a \
listed test fails.";
    let u = format!(
        "Instance: {}\nDrifted function: {}\nDrift labels: {}\nDrift rationale: {}\n\nAA PR2 patch:\n```diff\n{}\n```\n\nAA outcome: {}\nFailing tests: {}\n",
        item.instance_id,
        item.drift.target_id,
        item.drift.labels.join(", "),
        item.drift.rationale,
        item.aa_pr2_patch.trim_end(),
        if item.aa_resolved { "resolved" } else { "not resolved" },
        if item.failing_tests.is_empty() { "none".to_string() } else { item.failing_tests.join(", ") },
    );
    let mut meta = metadata("compound", &item.benchmark, &item.model, &item.instance_id);
    meta["target_id"] = Value::from(item.drift.target_id.clone());
    LlmRequest {
        custom_id: safe_custom_id(&format!(
            "compound__{}__{}__{}__{}",
            item.benchmark, item.model, item.instance_id, item.drift.target_id
        )),
        messages: vec![msg("system", sys.to_string()), msg("user", u)],
        metadata: meta,
    }
}

/// A compounding judgement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompoundLabel {
    /// Benchmark.
    pub benchmark: String,
    /// Model.
    pub model: String,
    /// Instance id.
    pub instance: String,
    /// The drifted target.
    pub target_id: String,
    /// What became of the drift.
    pub survival: Survival,
    /// Whether the drift caused the failing test.
    pub caused_failure: bool,
    /// The judge's reason.
    pub rationale: String,
}

/// A judge's answer that breaks its strict schema: the instance it answers
/// for and what is wrong (the display is the problem alone, as the import
/// reports list it beside the id).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct AnswerError {
    /// The instance the answer is for.
    pub instance: String,
    /// What is wrong with the answer.
    pub message: String,
}

/// Read a compounding answer strictly (fields `survival`,
/// `caused_failure`, `rationale`, nothing else).
pub fn parse_compound_answer(
    item: &CompoundItem,
    text: &str,
) -> Result<CompoundLabel, AnswerError> {
    compound_answer(item, text).map_err(|message| AnswerError {
        instance: item.instance_id.clone(),
        message,
    })
}

fn compound_answer(item: &CompoundItem, text: &str) -> Result<CompoundLabel, String> {
    let v = answer_json(text)?;
    let obj = v.as_object().ok_or("the answer is not a JSON object")?;
    if let Some(k) = obj
        .keys()
        .find(|k| !["survival", "caused_failure", "rationale"].contains(&k.as_str()))
    {
        return Err(format!("unexpected field {k:?}"));
    }
    let survival = match obj.get("survival").and_then(Value::as_str) {
        Some("survived") => Survival::Survived,
        Some("rewritten") => Survival::Rewritten,
        Some("removed") => Survival::Removed,
        other => {
            return Err(format!(
                "survival {other:?} is not survived / rewritten / removed"
            ))
        }
    };
    let caused_failure = match obj.get("caused_failure") {
        Some(Value::String(s)) if s == "yes" => true,
        Some(Value::String(s)) if s == "no" => false,
        Some(Value::Bool(b)) => *b,
        other => return Err(format!("caused_failure {other:?} is not yes / no")),
    };
    let rationale = obj
        .get("rationale")
        .and_then(Value::as_str)
        .ok_or("rationale must be a string")?;
    Ok(CompoundLabel {
        benchmark: item.benchmark.clone(),
        model: item.model.clone(),
        instance: item.instance_id.clone(),
        target_id: item.drift.target_id.clone(),
        survival,
        caused_failure,
        rationale: rationale.to_string(),
    })
}

/// The compounding table: shares over the drifted targets of the HA-wins
/// discordant cohort.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompoundingTable {
    /// Labelled drifted targets in the cohort.
    pub n: usize,
    /// Survived count.
    pub survived: usize,
    /// Rewritten count.
    pub rewritten: usize,
    /// Removed count.
    pub removed: usize,
    /// Caused the failing test.
    pub caused: usize,
    /// Labels outside the cohort (ignored).
    pub outside_cohort: usize,
}

impl CompoundingTable {
    /// `count / n` in percent (NaN when n = 0).
    pub fn pct(&self, count: usize) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            100.0 * count as f64 / self.n as f64
        }
    }

    /// Markdown rendering.
    pub fn to_markdown(&self) -> String {
        format!(
            "| drifted targets (HA-wins cohort) | survived | rewritten | removed | caused the failing test |\n|---:|---:|---:|---:|---:|\n| {} | {} ({:.1}%) | {} ({:.1}%) | {} ({:.1}%) | {} ({:.1}%) |\n",
            self.n,
            self.survived,
            self.pct(self.survived),
            self.rewritten,
            self.pct(self.rewritten),
            self.removed,
            self.pct(self.removed),
            self.caused,
            self.pct(self.caused)
        )
    }
}

/// The table over `labels` restricted to `ha_wins` (keys `(benchmark,
/// model, instance)` of the HA-wins discordant cohort).
pub fn compounding_table(
    labels: &[CompoundLabel],
    ha_wins: &BTreeSet<(String, String, String)>,
) -> CompoundingTable {
    let mut t = CompoundingTable {
        n: 0,
        survived: 0,
        rewritten: 0,
        removed: 0,
        caused: 0,
        outside_cohort: 0,
    };
    for l in labels {
        if !ha_wins.contains(&(l.benchmark.clone(), l.model.clone(), l.instance.clone())) {
            t.outside_cohort += 1;
            continue;
        }
        t.n += 1;
        match l.survival {
            Survival::Survived => t.survived += 1,
            Survival::Rewritten => t.rewritten += 1,
            Survival::Removed => t.removed += 1,
        }
        t.caused += usize::from(l.caused_failure);
    }
    t
}

/// Why [`touches_function`] could not decide (the display is the patch
/// crate's message alone).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TouchError {
    /// The PR2 patch is not a readable diff.
    #[error(transparent)]
    Parse(#[from] codethread_patch::ParseError),
    /// The PR2 patch's edits cannot be placed in the agent-PR1 tree.
    #[error(transparent)]
    Localize(#[from] codethread_patch::LocalizeError),
}

/// The deterministic survival check: does `aa_pr2_patch`, applied to the
/// agent-PR1 tree `pre`, edit the function `target_id` (`path::qualname`)
/// at all? `Ok(false)` means the drifted code reached the end of the chain
/// untouched (it certainly survived); `Ok(true)` means PR2 edited it (the
/// judge decides between survived, rewritten and removed).
///
/// `hint` is the repository's language (it settles `.h` between C and C++,
/// `codethread_lang::Lang::for_source`).
pub fn touches_function(
    pre: &codethread_patch::MemTree,
    aa_pr2_patch: &[u8],
    target_id: &str,
    hint: Option<codethread_lang::Lang>,
) -> Result<bool, TouchError> {
    if aa_pr2_patch.iter().all(u8::is_ascii_whitespace) {
        return Ok(false);
    }
    let parsed = codethread_patch::parse_patch(aa_pr2_patch)?;
    let loc = codethread_patch::localize(
        pre,
        &parsed,
        &codethread_patch::LocalizeOptions::with_hint(hint),
    )?;
    let base = target_id.split('#').next().unwrap_or(target_id);
    Ok(loc
        .targets
        .iter()
        .any(|f| f.target_id() == target_id || format!("{}::{}", f.path, f.qualname) == base))
}

/// One file of a drift item, whole on both sides (for the static
/// detector, which needs the enclosing file to name methods).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftFile {
    /// Repository path.
    pub path: String,
    /// The file after the human PR1 (the original file).
    pub human: String,
    /// The file after the agent's PR1.
    pub agent: String,
}

/// A drift item built from the two PR1 trees: the text of every target
/// (`path::qualname[#n]`) on each side (empty when a side lacks it), and
/// the whole files for [`static_iec`].
///
/// `hint` is the repository's language (a C++ repository's `.h` files are
/// C++).
pub fn drift_item_from_trees(
    benchmark: &str,
    model: &str,
    instance_id: &str,
    human: &codethread_patch::MemTree,
    agent: &codethread_patch::MemTree,
    target_ids: &[String],
    hint: Option<codethread_lang::Lang>,
) -> DriftItem {
    let mut targets = Vec::new();
    let mut files: Vec<DriftFile> = Vec::new();
    let mut language = String::new();
    for id in target_ids {
        let path = id.split("::").next().unwrap_or("");
        let text_of = |tree: &codethread_patch::MemTree| -> Option<(String, String)> {
            let src = tree.get(path.as_bytes())?;
            let lang = codethread_lang::Lang::for_source(path, src, hint)?;
            let file = codethread_lang::parse(lang, src.to_vec()).ok()?;
            let f = codethread_lang::index_functions(&file)
                .into_iter()
                .find(|f| f.target_id(path) == *id)?;
            let body = src.get(f.span.start_byte..f.span.end_byte.min(src.len()))?;
            Some((
                String::from_utf8_lossy(body).into_owned(),
                String::from_utf8_lossy(src).into_owned(),
            ))
        };
        let h = text_of(human);
        let a = text_of(agent);
        let probe = human.get(path.as_bytes()).unwrap_or(&[]);
        if let Some(l) = codethread_lang::Lang::for_source(path, probe, hint) {
            language = l.name().to_string();
        }
        if !files.iter().any(|f| f.path == path) {
            if let (Some((_, hf)), Some((_, af))) = (&h, &a) {
                files.push(DriftFile {
                    path: path.to_string(),
                    human: hf.clone(),
                    agent: af.clone(),
                });
            }
        }
        targets.push(DriftTarget {
            target_id: id.clone(),
            human: h.map(|x| x.0).unwrap_or_default(),
            agent: a.map(|x| x.0).unwrap_or_default(),
        });
    }
    DriftItem {
        benchmark: benchmark.to_string(),
        model: model.to_string(),
        instance_id: instance_id.to_string(),
        language,
        outside_edits: outside_edits(human, agent, target_ids, hint),
        targets,
        files,
    }
}

/// What the agent's PR1 changed outside the targets: edited, added or
/// removed functions that are not targets (`path::qualname[#n]`, by
/// localizing the human → agent diff), then edited files that hold no
/// target. Empty when the trees do not differ or the diff cannot be read.
fn outside_edits(
    human: &codethread_patch::MemTree,
    agent: &codethread_patch::MemTree,
    target_ids: &[String],
    hint: Option<codethread_lang::Lang>,
) -> Vec<String> {
    let Ok(patch) =
        codethread_patch::diff_trees(human, agent, &codethread_patch::DiffOptions::default())
    else {
        return Vec::new();
    };
    let bare = |id: &str| id.split('#').next().unwrap_or(id).to_string();
    let targets: std::collections::BTreeSet<String> = target_ids.iter().map(|t| bare(t)).collect();
    let target_files: std::collections::BTreeSet<&str> = target_ids
        .iter()
        .filter_map(|t| t.split("::").next())
        .collect();
    let mut out: Vec<String> = match codethread_patch::localize(
        human,
        &patch,
        &codethread_patch::LocalizeOptions::with_hint(hint),
    ) {
        Ok(loc) => codethread_patch::function_set(&loc, true)
            .into_iter()
            .filter(|f| !targets.contains(&bare(f)))
            .collect(),
        Err(_) => Vec::new(),
    };
    out.extend(
        codethread_patch::file_set(&patch)
            .into_iter()
            .filter(|p| !target_files.contains(p.as_str())),
    );
    out
}

/// The static detector's IEC flag of an item (over its whole files):
/// `None` when it carries no file both sides have.
pub fn static_iec(item: &DriftItem) -> Option<bool> {
    let mut any = None;
    for f in &item.files {
        let hint = codethread_lang::Lang::from_name(&item.language);
        let Some(lang) = codethread_lang::Lang::for_source(&f.path, f.human.as_bytes(), hint)
        else {
            continue;
        };
        let quals: Vec<String> = item
            .targets
            .iter()
            .filter_map(|t| {
                let (p, q) = t.target_id.split_once("::")?;
                (p == f.path).then(|| q.split('#').next().unwrap_or(q).to_string())
            })
            .collect();
        if let Ok(r) = crate::iec::detect_iec(lang, f.human.as_bytes(), f.agent.as_bytes(), &quals)
        {
            any = Some(any.unwrap_or(false) | r.flag);
        }
    }
    any
}

/// A line of a JSONL file that is not the item it should be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: line {line}: {message}")]
pub struct JsonlError {
    /// File name or `<memory>`.
    pub origin: String,
    /// 1-based line.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// Items of a JSONL file (one per line; a bad line is an error naming it,
/// the others are read).
pub fn load_items<T: serde::de::DeserializeOwned>(
    origin: &str,
    bytes: &[u8],
) -> (Vec<T>, Vec<JsonlError>) {
    let (mut items, mut errors) = (Vec::new(), Vec::new());
    for (n, l) in bytes.split(|b| *b == b'\n').enumerate() {
        if l.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<T>(l) {
            Ok(t) => items.push(t),
            Err(e) => errors.push(JsonlError {
                origin: origin.to_string(),
                line: n + 1,
                message: e.to_string(),
            }),
        }
    }
    (items, errors)
}

/// The outcome of importing a judge's answers.
#[derive(Debug, Clone, Default)]
pub struct Imported<T> {
    /// Parsed labels, in item order.
    pub labels: Vec<T>,
    /// `(custom_id, why)` per item whose answer is unusable.
    pub errors: Vec<(String, String)>,
    /// Items with no answer (their `custom_id`).
    pub missing: Vec<String>,
    /// Answers whose `custom_id` is no item's.
    pub unknown: Vec<String>,
}

fn import_with<I, T>(
    items: &[I],
    answers: &BTreeMap<String, String>,
    id: impl Fn(&I) -> String,
    parse: impl Fn(&I, &str) -> Result<T, String>,
) -> Imported<T> {
    let mut out = Imported {
        labels: Vec::new(),
        errors: Vec::new(),
        missing: Vec::new(),
        unknown: Vec::new(),
    };
    let mut known = BTreeSet::new();
    for it in items {
        let cid = id(it);
        known.insert(cid.clone());
        match answers.get(&cid) {
            None => out.missing.push(cid),
            Some(text) => match parse(it, text) {
                Ok(l) => out.labels.push(l),
                Err(e) => out.errors.push((cid, e)),
            },
        }
    }
    out.unknown = answers
        .keys()
        .filter(|k| !known.contains(*k))
        .cloned()
        .collect();
    out
}

/// Import drift answers (`custom_id` → answer text) for `items`.
pub fn import_drift(
    items: &[DriftItem],
    answers: &BTreeMap<String, String>,
) -> Imported<DriftRecord> {
    import_with(
        items,
        answers,
        |it| drift_request(it).custom_id,
        |it, text| {
            parse_drift_answer(it, text)
                .map(|l| drift_record(it, l))
                .map_err(|e| e.message)
        },
    )
}

/// Import compounding answers (`custom_id` → answer text) for `items`.
pub fn import_compound(
    items: &[CompoundItem],
    answers: &BTreeMap<String, String>,
) -> Imported<CompoundLabel> {
    import_with(
        items,
        answers,
        |it| compound_request(it).custom_id,
        |it, text| parse_compound_answer(it, text).map_err(|e| e.message),
    )
}

/// `(benchmark, model, instance)`.
pub type JudgeKey = (String, String, String);

/// The AA chain's PR2 of one instance: the patch, whether it resolved the
/// issue, the failing tests.
pub type AaOutcome = (String, bool, Vec<String>);

/// The compounding items of drifted targets: every target of `drift`
/// with a drift label, joined with the AA chain's PR2 patch and outcome
/// from `aa` (keyed `(benchmark, model, instance)`: patch, resolved,
/// failing tests).
pub fn compound_items(
    drift: &[DriftRecord],
    aa: &BTreeMap<JudgeKey, AaOutcome>,
) -> Vec<CompoundItem> {
    let mut out = Vec::new();
    for r in drift {
        let key = (r.benchmark.clone(), r.model.clone(), r.instance.clone());
        let Some((patch, resolved, failing)) = aa.get(&key) else {
            continue;
        };
        for t in r.targets.iter().filter(|t| t.drifted()) {
            out.push(CompoundItem {
                benchmark: r.benchmark.clone(),
                model: r.model.clone(),
                instance_id: r.instance.clone(),
                drift: t.clone(),
                aa_pr2_patch: patch.clone(),
                aa_resolved: *resolved,
                failing_tests: failing.clone(),
            });
        }
    }
    out
}

/// One AA chain's PR2, as a JSONL row for the compounding items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AaPr2 {
    /// Benchmark.
    #[serde(default)]
    pub benchmark: String,
    /// Model.
    pub model: String,
    /// Instance id.
    #[serde(alias = "instance_id")]
    pub instance: String,
    /// The AA PR2 patch.
    pub aa_pr2_patch: String,
    /// Whether it resolved the issue.
    pub aa_resolved: bool,
    /// Failing tests.
    #[serde(default)]
    pub failing_tests: Vec<String>,
}

/// [`AaPr2`] rows keyed for [`compound_items`].
pub fn aa_map(rows: &[AaPr2]) -> BTreeMap<JudgeKey, AaOutcome> {
    rows.iter()
        .map(|r| {
            (
                (r.benchmark.clone(), r.model.clone(), r.instance.clone()),
                (
                    r.aa_pr2_patch.clone(),
                    r.aa_resolved,
                    r.failing_tests.clone(),
                ),
            )
        })
        .collect()
}
