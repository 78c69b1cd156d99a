//! The one check of the ids this crate loads (instance ids of every dataset
//! format, prediction ids, report ids, answer ids) and of model names that
//! end up in file names: an id must fit every output it names.
//!
//! Ids name files and directories (`instances/<id>/`, `setup_patches/<id>.patch`,
//! `pr0/<id>.patch`, the harness's `logs/run_evaluation/<run>/<model>/<id>/`),
//! travel in HTTP headers and are printed on the terminal, so an id is one
//! path component of at most `MAX_ID_BYTES` bytes (`NAME_MAX` = 255 less
//! the longest suffix we add, `.patch`) with no control character (C0, DEL,
//! C1: `\n`, `\r`, ESC, NUL, ... would forge log lines, inject terminal
//! escapes or be unsendable as a header) and no path separator. A bad id is
//! the error of its row alone; [`label`] renders any id safe for printing.

/// The longest suffix this crate appends to an id to name a file.
pub(crate) const LONGEST_ID_SUFFIX: &str = ".patch";

/// The longest id, in bytes: a file name component (`NAME_MAX`, 255 bytes
/// on Linux and macOS) that still holds `<id>.patch`.
pub(crate) const MAX_ID_BYTES: usize = 255 - LONGEST_ID_SUFFIX.len();

/// Why `id` cannot be used as an id (`None`: it can).
pub fn id_problem(id: &str) -> Option<String> {
    if id.is_empty() {
        return Some("empty id".into());
    }
    if id == "." || id == ".." {
        return Some("the id is a relative directory (`.` or `..`)".into());
    }
    if let Some(c) = id.chars().find(|c| c.is_control()) {
        return Some(format!(
            "the id contains the control character U+{:04X}",
            u32::from(c)
        ));
    }
    if id.contains(['/', '\\']) {
        return Some("the id contains a path separator".into());
    }
    if id.len() > MAX_ID_BYTES {
        return Some(format!(
            "the id is {} bytes long; at most {MAX_ID_BYTES} fit a file name (`<id>{LONGEST_ID_SUFFIX}`)",
            id.len()
        ));
    }
    None
}

/// Why a model name (`model_name_or_path`) cannot name the harness's log
/// directory (`None`: it can). The harness replaces `/` by `__`, so `/` is
/// allowed; control characters are not, and the directory name (with the
/// stage suffix `chain stack` adds, e.g. `__PR1`) must fit a file name.
pub(crate) fn model_name_problem(model: &str) -> Option<String> {
    if let Some(c) = model.chars().find(|c| c.is_control()) {
        return Some(format!(
            "the model name contains the control character U+{:04X}",
            u32::from(c)
        ));
    }
    let dir = model.replace('/', "__");
    if dir == "." || dir == ".." || dir.contains('\\') {
        return Some("the model name cannot name a directory".into());
    }
    if dir.len() > MAX_ID_BYTES {
        return Some(format!(
            "the model name is {} bytes long as a directory name; at most {MAX_ID_BYTES} fit",
            dir.len()
        ));
    }
    None
}

/// `id` as it may be printed: control characters, backslashes and
/// non-printing characters escaped (`\n`, `\r`, `\t`, `\x1b`, `\u{85}`),
/// and an id longer than 300 bytes cut (with its length said), so that no
/// id read from a file can forge a log line or reach the terminal as an
/// escape sequence.
pub fn label(id: &str) -> String {
    let mut out = String::new();
    for (i, c) in id.char_indices() {
        if i >= 300 {
            out.push_str(&format!("... ({} bytes)", id.len()));
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_that_fit_every_output() {
        for ok in [
            "django__django-11099",
            "a",
            "x.y-z_1",
            "名前",
            &"a".repeat(MAX_ID_BYTES),
        ] {
            assert_eq!(id_problem(ok), None, "{ok}");
        }
        for bad in [
            "",
            ".",
            "..",
            "a/b",
            "a\\b",
            "a\nb",
            "a\rb",
            "a\u{1b}[31mred",
            "a\0b",
            "a\u{7f}",
            "a\u{85}b",
            &"a".repeat(MAX_ID_BYTES + 1),
            &"é".repeat(125),
        ] {
            assert!(id_problem(bad).is_some(), "{bad:?}");
        }
        assert_eq!(model_name_problem("anthropic/claude-sonnet-4-5"), None);
        assert!(model_name_problem("m\nodel").is_some());
        assert!(model_name_problem(&"m/".repeat(100)).is_some());
    }

    #[test]
    fn labels_never_carry_control_characters() {
        assert_eq!(label("a\nb\r\u{1b}[2J\0\\"), "a\\nb\\r\\x1b[2J\\x00\\\\");
        assert_eq!(label("a\u{85}"), "a\\u{85}");
        let long = label(&"x".repeat(1000));
        assert!(long.len() < 400 && long.ends_with("(1000 bytes)"), "{long}");
        for s in ["\u{7}", "\u{9b}31m", "z\u{7f}"] {
            assert!(!label(s).chars().any(char::is_control), "{s:?}");
        }
    }
}
