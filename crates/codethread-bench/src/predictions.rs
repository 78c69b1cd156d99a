//! Predictions files (what the SWE-bench harness grades): `instance_id`,
//! `model_name_or_path`, `model_patch`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::BenchError;
use crate::instance::Loaded;
use crate::records::{decode_text, split_records};

/// One prediction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// The instance.
    pub instance_id: String,
    /// The model / run name.
    pub model_name_or_path: String,
    /// The patch (unified diff); empty when the source had `null` or no patch.
    pub model_patch: String,
}

/// Load predictions from `.jsonl`, a `.json` list, a `.json` dict keyed by
/// instance id (mini-swe-agent `preds.json`, values either prediction
/// objects or bare patch strings), or `{"predictions": ...}`.
///
/// Quirks handled: `model_patch: null` (SWE-agent runs with no submission)
/// becomes an empty patch; `model_patch` holding a nested prediction object
/// (OmniCode's SWE-agent exports) is unwrapped; a missing
/// `model_name_or_path` is taken from the nested object or left empty.
/// Patches are kept byte-for-byte (a leading blank line, as SWE-agent
/// writes, is harmless to `git apply`); `model_patch_b64` (see
/// [`crate::carry::bytes_of_value`]) is read before `model_patch`. Rows that cannot be read
/// (no patch, a patch that is not a string, a truncated line) are reported
/// in [`Loaded::errors`], naming file, line and field; so is a patch that is
/// not UTF-8 (read those with [`load_patch_predictions`]). Rows sharing an
/// `instance_id`: identical repeats are dropped with a warning, differing
/// ones are all refused ([`BenchError::Duplicate`], naming both lines).
pub fn load_predictions(
    path: &Path,
    limits: codethread_lang::io::SourceLimits,
) -> Result<Loaded<Prediction>, BenchError> {
    let bytes = crate::files::read(path, limits)?;
    parse_predictions(path, &decode_text(bytes))
}

/// Like [`load_predictions`], for text in memory.
pub fn parse_predictions(path: &Path, text: &str) -> Result<Loaded<Prediction>, BenchError> {
    let mut out = Loaded::default();
    let mut rows = Vec::new();
    for (line, id, p) in prediction_rows(path, text, &mut out.errors)? {
        match String::from_utf8(p.model_patch) {
            Ok(model_patch) => rows.push((
                line,
                id,
                Prediction {
                    instance_id: p.instance_id,
                    model_name_or_path: p.model_name_or_path,
                    model_patch,
                },
            )),
            Err(_) => out.errors.push(BenchError::BadField {
                path: path.to_path_buf(),
                line,
                instance_id: id,
                field: "model_patch_b64".into(),
                message: "the patch is not UTF-8: it cannot be used as a text prediction (read it with load_patch_predictions)".into(),
            }),
        }
    }
    crate::records::dedupe(path, "prediction", rows, &mut out);
    Ok(out)
}

/// Like [`load_predictions`], keeping every patch as bytes (non-UTF-8
/// patches included, from `model_patch_b64`).
pub fn load_patch_predictions(
    path: &Path,
    limits: codethread_lang::io::SourceLimits,
) -> Result<Loaded<PatchPrediction>, BenchError> {
    let bytes = crate::files::read(path, limits)?;
    parse_patch_predictions(path, &decode_text(bytes))
}

/// Like [`load_patch_predictions`], for bytes in memory (the fuzz
/// target's entry point).
pub fn parse_patch_predictions_bytes(
    path: &Path,
    bytes: &[u8],
) -> Result<Loaded<PatchPrediction>, BenchError> {
    parse_patch_predictions(path, &decode_text(bytes.to_vec()))
}

/// Like [`load_patch_predictions`], for text in memory.
pub fn parse_patch_predictions(
    path: &Path,
    text: &str,
) -> Result<Loaded<PatchPrediction>, BenchError> {
    let mut out = Loaded::default();
    let rows = prediction_rows(path, text, &mut out.errors)?;
    crate::records::dedupe(path, "prediction", rows, &mut out);
    Ok(out)
}

/// Every readable row as `(line, id, prediction)`; bad rows go to `errors`.
fn prediction_rows(
    path: &Path,
    text: &str,
    errors: &mut Vec<BenchError>,
) -> Result<Vec<(usize, String, PatchPrediction)>, BenchError> {
    let mut rows = Vec::new();
    for r in split_records(path, text, &["predictions", "preds"])? {
        let value = match r.value {
            Ok(v) => v,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        // Ids and model names name files and directories (ours and the
        // harness's) and are printed: checked by `ids`, printed as labels.
        let checked = prediction_from_value(value, r.key.as_deref()).and_then(|p| {
            if let Some(why) = crate::ids::id_problem(&p.instance_id) {
                return Err((p.instance_id, "instance_id".into(), Some(why)));
            }
            if let Some(why) = crate::ids::model_name_problem(&p.model_name_or_path) {
                return Err((p.instance_id, "model_name_or_path".into(), Some(why)));
            }
            Ok(p)
        });
        match checked {
            Ok(p) => rows.push((r.line, p.instance_id.clone(), p)),
            Err((id, field, None)) => errors.push(BenchError::MissingField {
                path: path.to_path_buf(),
                line: r.line,
                instance_id: crate::ids::label(&id),
                field,
            }),
            Err((id, field, Some(message))) => errors.push(BenchError::BadField {
                path: path.to_path_buf(),
                line: r.line,
                instance_id: crate::ids::label(&id),
                field,
                message,
            }),
        }
    }
    Ok(rows)
}

/// `(instance id, field, None = missing | Some(what is wrong))`.
type RowError = (String, String, Option<String>);

const NOT_A_PATCH: &str = "expected a string, an object or null";

fn prediction_from_value(v: Value, key: Option<&str>) -> Result<PatchPrediction, RowError> {
    let unknown = || key.unwrap_or("<unknown>").to_string();
    match v {
        Value::String(patch) => match key {
            Some(k) => Ok(PatchPrediction {
                instance_id: k.to_string(),
                model_name_or_path: String::new(),
                model_patch: patch.into_bytes(),
            }),
            None => Err((unknown(), "instance_id".into(), None)),
        },
        Value::Object(mut m) => {
            let id = match m.remove("instance_id") {
                Some(Value::String(s)) => s,
                _ => key
                    .map(str::to_string)
                    .ok_or_else(|| (unknown(), "instance_id".to_string(), None))?,
            };
            // The byte-exact sibling wins over the text (crate::carry).
            if m.contains_key("model_patch_b64") {
                let patch = crate::carry::take_bytes(&m, "model_patch")
                    .map_err(|e| {
                        (
                            id.clone(),
                            "model_patch_b64".to_string(),
                            Some(e.to_string()),
                        )
                    })?
                    .unwrap_or_default();
                let model = match m.remove("model_name_or_path") {
                    Some(Value::String(s)) => s,
                    _ => String::new(),
                };
                return Ok(PatchPrediction {
                    instance_id: id,
                    model_name_or_path: model,
                    model_patch: patch,
                });
            }
            let mut model = match m.remove("model_name_or_path") {
                Some(Value::String(s)) => Some(s),
                _ => None,
            };
            let patch = match m.remove("model_patch") {
                Some(Value::String(s)) => s,
                Some(Value::Null) => String::new(),
                Some(Value::Object(mut inner)) => {
                    if model.is_none() {
                        if let Some(Value::String(s)) = inner.remove("model_name_or_path") {
                            model = Some(s);
                        }
                    }
                    match inner.remove("model_patch") {
                        Some(Value::String(s)) => s,
                        Some(Value::Null) | None => String::new(),
                        Some(_) => {
                            return Err((
                                id,
                                "model_patch.model_patch".into(),
                                Some(NOT_A_PATCH.into()),
                            ))
                        }
                    }
                }
                Some(_) => return Err((id, "model_patch".into(), Some(NOT_A_PATCH.into()))),
                None => match m.remove("patch") {
                    Some(Value::String(s)) => s,
                    Some(_) => return Err((id, "patch".into(), Some(NOT_A_PATCH.into()))),
                    None => return Err((id, "model_patch".into(), None)),
                },
            };
            Ok(PatchPrediction {
                instance_id: id,
                model_name_or_path: model.unwrap_or_default(),
                model_patch: patch.into_bytes(),
            })
        }
        _ => Err((
            unknown(),
            "<row>".into(),
            Some("a prediction must be an object (or a patch string in an id-keyed file)".into()),
        )),
    }
}

/// A prediction whose patch is bytes: what `codethread_chain::stack`
/// produces and [`load_patch_predictions`] reads. Serialized as a
/// prediction row; a patch that is not UTF-8 is written as lossy text in
/// `model_patch` plus the authoritative `model_patch_b64` ([`crate::carry::bytes_of_value`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchPrediction {
    /// The instance.
    pub instance_id: String,
    /// The model / run name.
    pub model_name_or_path: String,
    /// The patch bytes.
    pub model_patch: Vec<u8>,
}

impl PatchPrediction {
    /// The row as written (`model_patch_b64` beside the text when the patch
    /// is not UTF-8) and the warning in that case.
    pub fn to_row(&self) -> (serde_json::Map<String, Value>, Option<String>) {
        let mut m = serde_json::Map::new();
        m.insert(
            "instance_id".into(),
            Value::String(self.instance_id.clone()),
        );
        m.insert(
            "model_name_or_path".into(),
            Value::String(self.model_name_or_path.clone()),
        );
        let w = crate::carry::put_bytes(&mut m, "model_patch", &self.model_patch);
        (m, w)
    }

    /// The text prediction, when the patch is UTF-8.
    pub fn to_text(&self) -> Option<Prediction> {
        Some(Prediction {
            instance_id: self.instance_id.clone(),
            model_name_or_path: self.model_name_or_path.clone(),
            model_patch: String::from_utf8(self.model_patch.clone()).ok()?,
        })
    }
}

impl Serialize for PatchPrediction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_row().0.serialize(s)
    }
}

/// Index predictions by instance id (the loaders already refused ids that
/// repeat with different content; should two still share an id, the later
/// one wins, as in the harness, which builds a dict).
pub fn predictions_by_id(preds: &[Prediction]) -> BTreeMap<String, Prediction> {
    preds
        .iter()
        .map(|p| (p.instance_id.clone(), p.clone()))
        .collect()
}

/// Render predictions as JSONL (one object per line, ids in the given
/// order): [`Prediction`]s, or [`PatchPrediction`]s with their
/// `model_patch_b64` when a patch is not UTF-8.
pub fn predictions_to_jsonl<T: Serialize>(preds: &[T]) -> String {
    crate::export::to_jsonl(preds)
}
