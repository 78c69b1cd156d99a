//! Predictions files (what the SWE-bench harness grades): `instance_id`,
//! `model_name_or_path`, `model_patch`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ChainError;
use crate::instance::Loaded;
use crate::records::{read_text, split_records};

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
/// writes, is harmless to `git apply`). Rows that cannot be read are
/// reported in [`Loaded::errors`], naming file, line and field.
pub fn load_predictions(path: &Path) -> Result<Loaded<Prediction>, ChainError> {
    let text = read_text(path)?;
    parse_predictions(path, &text)
}

/// Like [`load_predictions`], for text in memory.
pub fn parse_predictions(path: &Path, text: &str) -> Result<Loaded<Prediction>, ChainError> {
    let mut out = Loaded::default();
    for r in split_records(path, text, &["predictions", "preds"])? {
        let value = match r.value {
            Ok(v) => v,
            Err(e) => {
                out.errors.push(e);
                continue;
            }
        };
        match prediction_from_value(value, r.key.as_deref()) {
            Ok(p) => out.items.push(p),
            Err((id, field, missing)) => out.errors.push(if missing {
                ChainError::MissingField {
                    path: path.to_path_buf(),
                    line: r.line,
                    instance_id: id,
                    field,
                }
            } else {
                ChainError::BadField {
                    path: path.to_path_buf(),
                    line: r.line,
                    instance_id: id,
                    field,
                    message: "expected a string, an object or null".into(),
                }
            }),
        }
    }
    Ok(out)
}

fn prediction_from_value(
    v: Value,
    key: Option<&str>,
) -> Result<Prediction, (String, String, bool)> {
    let unknown = || key.unwrap_or("<unknown>").to_string();
    match v {
        Value::String(patch) => match key {
            Some(k) => Ok(Prediction {
                instance_id: k.to_string(),
                model_name_or_path: String::new(),
                model_patch: patch,
            }),
            None => Err((unknown(), "instance_id".into(), true)),
        },
        Value::Object(mut m) => {
            let id = match m.remove("instance_id") {
                Some(Value::String(s)) => s,
                _ => key
                    .map(str::to_string)
                    .ok_or_else(|| (unknown(), "instance_id".to_string(), true))?,
            };
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
                        Some(_) => return Err((id, "model_patch.model_patch".into(), false)),
                    }
                }
                Some(_) => return Err((id, "model_patch".into(), false)),
                None => match m.remove("patch") {
                    Some(Value::String(s)) => s,
                    _ => return Err((id, "model_patch".into(), true)),
                },
            };
            Ok(Prediction {
                instance_id: id,
                model_name_or_path: model.unwrap_or_default(),
                model_patch: patch,
            })
        }
        _ => Err((unknown(), "<row>".into(), false)),
    }
}

/// Index predictions by instance id; a later row for the same id wins (as
/// in the harness, which builds a dict).
pub fn predictions_by_id(preds: &[Prediction]) -> BTreeMap<String, Prediction> {
    preds
        .iter()
        .map(|p| (p.instance_id.clone(), p.clone()))
        .collect()
}

/// Render predictions as JSONL (one object per line, ids in the given order).
pub fn predictions_to_jsonl(preds: &[Prediction]) -> String {
    crate::export::to_jsonl(preds)
}
