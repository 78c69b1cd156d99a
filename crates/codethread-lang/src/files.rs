//! Finding the source files of a tree: one iterative directory walk for
//! every crate and tool of codethread.

use std::path::{Path, PathBuf};

/// A file or directory that could not be read during [`source_files`].
#[derive(Debug, thiserror::Error)]
#[error("{}: cannot read: {source}", path.display())]
pub struct WalkError {
    /// The file or directory.
    pub path: PathBuf,
    /// The I/O error.
    #[source]
    pub source: std::io::Error,
}

/// Every file of a supported language ([`crate::Lang::from_path`]) under
/// `root`, sorted by path, and the paths that could not be read.
///
/// A `root` that is not a directory is returned as it is (whatever its
/// extension: a file named explicitly is the caller's choice). Directories are
/// walked iteratively; symbolic links to directories are not followed, other
/// links are kept (a dangling one then fails to read, naming itself, instead
/// of vanishing); dot-files are included. An unreadable directory or entry is
/// reported in the second list and the walk goes on.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("ct-doc-files-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("pkg")).unwrap();
/// std::fs::write(dir.join("pkg/a.py"), "x = 1\n").unwrap();
/// std::fs::write(dir.join("notes.txt"), "").unwrap();
/// let (files, errors) = codethread_lang::source_files(&dir);
/// assert_eq!(files, vec![dir.join("pkg/a.py")]);
/// assert!(errors.is_empty());
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn source_files(root: &Path) -> (Vec<PathBuf>, Vec<WalkError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let err = |path: &Path, source| WalkError {
        path: path.to_path_buf(),
        source,
    };
    match std::fs::metadata(root) {
        Ok(m) if !m.is_dir() => return (vec![root.to_path_buf()], errors),
        Ok(_) => {}
        Err(e) => {
            errors.push(err(root, e));
            return (files, errors);
        }
    }
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                errors.push(err(&dir, e));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    errors.push(err(&dir, e));
                    continue;
                }
            };
            let path = entry.path();
            let ft = match entry.file_type() {
                Ok(ft) => ft,
                Err(e) => {
                    errors.push(err(&path, e));
                    continue;
                }
            };
            if ft.is_dir() {
                stack.push(path);
            } else if crate::Lang::from_path(&path).is_some() && !(ft.is_symlink() && path.is_dir())
            {
                files.push(path);
            }
        }
    }
    files.sort();
    (files, errors)
}

/// A path as text for records and JSON, `/`-separated, without `.`
/// components, keeping distinct names distinct (never through a lossy
/// conversion):
///
/// - a path whose bytes are UTF-8 and which does not start with `"` is
///   written as it is (`pkg/a.py`);
/// - any other path is written in double quotes, with `\` and `"` escaped
///   as `\\` and `\"` and every byte that is not part of valid UTF-8 as
///   `\xNN` (two lowercase hex digits): the names `\xff.py` and `\xfe.py`
///   become `"\xff.py"` and `"\xfe.py"`.
///
/// Unquoted labels never start with `"` and quoted ones always do, and the
/// escapes are reversible, so two different paths never get one label.
///
/// ```
/// use std::path::Path;
/// use codethread_lang::path_label;
/// assert_eq!(path_label(Path::new("pkg/a.py")), "pkg/a.py");
/// #[cfg(unix)]
/// {
///     use std::os::unix::ffi::OsStrExt;
///     let ff = Path::new(std::ffi::OsStr::from_bytes(b"\xff.py"));
///     let fe = Path::new(std::ffi::OsStr::from_bytes(b"\xfe.py"));
///     assert_eq!(path_label(ff), r#""\xff.py""#);
///     assert_ne!(path_label(ff), path_label(fe));
/// }
/// ```
pub fn path_label(rel: &Path) -> String {
    let mut bytes: Vec<u8> = Vec::new();
    for c in rel.components() {
        match c {
            // `./a.py` is `a.py`.
            std::path::Component::CurDir => continue,
            std::path::Component::RootDir => {
                bytes.push(b'/');
                continue;
            }
            _ => {}
        }
        if !bytes.is_empty() && bytes.last() != Some(&b'/') {
            bytes.push(b'/');
        }
        bytes.extend_from_slice(c.as_os_str().as_encoded_bytes());
    }
    bytes_label(&bytes)
}

/// The label of [`path_label`] for a path given as bytes (a diff's path, a
/// tree key): UTF-8 not starting with `"` as it is, anything else quoted with
/// `\\`, `\"` and `\xNN` escapes, so distinct byte strings get distinct labels.
///
/// ```
/// use codethread_lang::bytes_label;
/// assert_eq!(bytes_label(b"pkg/a.py"), "pkg/a.py");
/// assert_eq!(bytes_label(b"\xff.py"), r#""\xff.py""#);
/// assert_ne!(bytes_label(b"\xff.py"), bytes_label(b"\xfe.py"));
/// ```
pub fn bytes_label(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) if !s.starts_with('"') => s.to_string(),
        _ => {
            let mut out = String::from("\"");
            for chunk in bytes.utf8_chunks() {
                for ch in chunk.valid().chars() {
                    match ch {
                        '\\' => out.push_str("\\\\"),
                        '"' => out.push_str("\\\""),
                        c => out.push(c),
                    }
                }
                for b in chunk.invalid() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            out.push('"');
            out
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[cfg(unix)]
    #[test]
    fn labels_keep_distinct_names_distinct() {
        use std::os::unix::ffi::OsStrExt;
        let p = |b: &[u8]| PathBuf::from(std::ffi::OsStr::from_bytes(b));
        let names: Vec<PathBuf> = vec![
            p(b"\xff.py"),
            p(b"\xfe.py"),
            p(b"\xef\xbf\xbd.py"), // U+FFFD itself, valid UTF-8
            p(b"\\xff.py"),        // a backslash, then `xff`
            p(b"\"\\xff.py\""),    // the quoted label of the first, as a name
            p(b"dir/\xff/a.py"),
            p(b"a.py"),
        ];
        let labels: std::collections::BTreeSet<String> =
            names.iter().map(|n| path_label(n)).collect();
        assert_eq!(labels.len(), names.len(), "{labels:?}");
        assert_eq!(path_label(&p(b"\xff.py")), "\"\\xff.py\"");
        assert_eq!(path_label(&p(b"dir/\xff/a.py")), "\"dir/\\xff/a.py\"");
        assert_eq!(path_label(&p(b"a.py")), "a.py");
        assert_eq!(path_label(&p(b"./././a.py")), "a.py");
        assert_eq!(path_label(&p(b"/tmp/./a.py")), "/tmp/a.py");
        assert_eq!(path_label(&p(b"\xef\xbf\xbd.py")), "\u{fffd}.py");
    }

    #[test]
    fn walks_sorted_skips_other_files_and_reports_missing_roots() {
        let dir = std::env::temp_dir().join(format!("ct-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b/.hidden")).unwrap();
        for f in ["b/z.go", "a.rs", "b/.hidden/x.tsx", "README.md", "b/y.js"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("b"), dir.join("link.py")).unwrap();
            std::os::unix::fs::symlink(dir.join("gone.py"), dir.join("dangling.py")).unwrap();
        }
        let (files, errors) = source_files(&dir);
        let rel: Vec<String> = files
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        #[cfg(unix)]
        assert_eq!(
            rel,
            ["a.rs", "b/.hidden/x.tsx", "b/y.js", "b/z.go", "dangling.py"]
        );
        #[cfg(not(unix))]
        assert_eq!(rel, ["a.rs", "b/.hidden/x.tsx", "b/y.js", "b/z.go"]);
        assert!(errors.is_empty());
        // A file root comes back as given, whatever its extension.
        let (one, _) = source_files(&dir.join("README.md"));
        assert_eq!(one, vec![dir.join("README.md")]);
        let (none, errors) = source_files(&dir.join("missing"));
        assert!(none.is_empty());
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().contains("missing"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
