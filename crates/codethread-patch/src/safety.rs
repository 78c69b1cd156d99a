//! Path safety rules shared by every applier and the diff writer.

/// Checks that a patch path is safe to touch below a root: relative, no
/// empty / `.` / `..` components, nothing inside `.git` (any case), no NUL.
/// Returns the reason for refusal.
pub fn check_path(path: &[u8]) -> Result<(), &'static str> {
    if path.is_empty() {
        return Err("empty path");
    }
    if path.contains(&0) {
        return Err("NUL byte in path");
    }
    if path[0] == b'/' {
        return Err("absolute path");
    }
    for comp in path.split(|&b| b == b'/') {
        match comp {
            b"" => return Err("empty path component"),
            b"." => return Err("`.` path component"),
            b".." => return Err("`..` path component"),
            c if c.eq_ignore_ascii_case(b".git") => return Err("path into .git"),
            _ => {}
        }
    }
    Ok(())
}

/// Converts a patch path (bytes) into a filesystem path component list.
#[cfg(unix)]
pub(crate) fn to_os_path(path: &[u8]) -> Option<std::path::PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(std::path::PathBuf::from(std::ffi::OsStr::from_bytes(path)))
}

/// Converts a patch path (bytes) into a filesystem path (UTF-8 required off Unix).
#[cfg(not(unix))]
pub(crate) fn to_os_path(path: &[u8]) -> Option<std::path::PathBuf> {
    std::str::from_utf8(path).ok().map(std::path::PathBuf::from)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::check_path;

    #[test]
    fn refuses_unsafe() {
        for p in [
            &b"/etc/passwd"[..],
            b"../../etc/x",
            b"a/../../b",
            b"a/./b",
            b"a//b",
            b"a/",
            b".git/hooks/pre-commit",
            b"sub/.GIT/config",
            b"",
            b"a\0b",
        ] {
            assert!(check_path(p).is_err(), "{:?}", String::from_utf8_lossy(p));
        }
        for p in [
            &b"a/b.py"[..],
            b"..foo/bar",
            b".github/x.yml",
            b"x.git/y",
            b"sp ace/\xc3\xa9",
        ] {
            assert!(check_path(p).is_ok(), "{:?}", String::from_utf8_lossy(p));
        }
    }
}
