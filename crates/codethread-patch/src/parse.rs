//! Parser for unified and git diffs (bytes in, [`Patch`] out).

use crate::error::ParseError;
use crate::model::*;
use crate::quote::unquote_c;

/// Parses a unified or git diff. Bytes that belong to no file diff are kept
/// (as [`FilePatch::preamble`] / [`Patch::trailer`]) so that
/// `parse_patch(x)?.to_bytes() == x`.
///
/// Fails with [`ParseError::NoFiles`] when the input holds no file diff, and
/// with a typed error naming the line for malformed headers or hunks whose
/// line counts disagree with their header.
pub fn parse_patch(input: &[u8]) -> Result<Patch, ParseError> {
    parse_with_strip(input, 1)
}

/// [`parse_patch`] with another `-p` strip level for the `---`/`+++` and
/// `diff --git` names: 0 for svn-style diffs without `a/`/`b/` prefixes
/// (`rename`/`copy` names are never stripped, as in git).
pub fn parse_with_strip(input: &[u8], strip: usize) -> Result<Patch, ParseError> {
    let lines = split_lines(input);
    let mut p = Parser {
        input,
        lines: &lines,
        i: 0,
        strip,
    };
    let mut files = Vec::new();
    let mut garbage_start = 0usize; // byte offset where unassigned bytes begin
    while p.i < lines.len() {
        let line = p.line(p.i);
        let starts_file = line.starts_with(b"diff --git ")
            || (line.starts_with(b"--- ")
                && p.i + 1 < lines.len()
                && p.line(p.i + 1).starts_with(b"+++ ")
                && p.i + 2 < lines.len()
                && p.line(p.i + 2).starts_with(b"@@ -"));
        if !starts_file {
            p.i += 1;
            continue;
        }
        let preamble = input[garbage_start..lines[p.i].0].to_vec();
        let mut fp = if line.starts_with(b"diff --git ") {
            p.git_file()?
        } else {
            p.traditional_file()?
        };
        fp.preamble = preamble;
        p.hunks(&mut fp)?;
        garbage_start = lines.get(p.i).map_or(input.len(), |l| l.0);
        files.push(fp);
    }
    if files.is_empty() {
        return Err(ParseError::NoFiles { bytes: input.len() });
    }
    Ok(Patch {
        files,
        trailer: input[garbage_start..].to_vec(),
    })
}

/// (start, end) byte offsets of each line, terminator included.
fn split_lines(input: &[u8]) -> Vec<(usize, usize)> {
    let mut v = Vec::with_capacity(input.len() / 32 + 1);
    let mut s = 0;
    for (i, &b) in input.iter().enumerate() {
        if b == b'\n' {
            v.push((s, i + 1));
            s = i + 1;
        }
    }
    if s < input.len() {
        v.push((s, input.len()));
    }
    v
}

struct Parser<'a> {
    input: &'a [u8],
    lines: &'a [(usize, usize)],
    i: usize,
    strip: usize,
}

/// A line without its `\n` / `\r\n` terminator.
fn chomp(l: &[u8]) -> &[u8] {
    let l = l.strip_suffix(b"\n").unwrap_or(l);
    l.strip_suffix(b"\r").unwrap_or(l)
}

fn parse_octal(s: &[u8]) -> Option<u32> {
    if s.is_empty() || s.len() > 7 {
        return None;
    }
    let mut v = 0u32;
    for &b in s {
        if !(b'0'..=b'7').contains(&b) {
            return None;
        }
        v = v * 8 + u32::from(b - b'0');
    }
    Some(v)
}

fn parse_dec(s: &[u8]) -> Option<usize> {
    if s.is_empty() || s.len() > 18 {
        return None;
    }
    let mut v = 0usize;
    for &b in s {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + usize::from(b - b'0');
    }
    Some(v)
}

/// Removes `n` leading path components (git's `-p`), `None` when the path
/// has fewer components (then the name is kept as is by the caller).
fn strip_components(path: &[u8], n: usize) -> Vec<u8> {
    let mut rest = path;
    for _ in 0..n {
        match rest.iter().position(|&b| b == b'/') {
            Some(p) => {
                rest = &rest[p + 1..];
                while rest.first() == Some(&b'/') {
                    rest = &rest[1..];
                }
            }
            None => return path.to_vec(),
        }
    }
    rest.to_vec()
}

/// Parses a name at the start of `s` (quoted or not). Unquoted names end at
/// a tab (timestamps follow it) or the end of the line; trailing spaces
/// are kept unless followed by a tab.
fn name_field(s: &[u8], line: usize) -> Result<Vec<u8>, ParseError> {
    if s.first() == Some(&b'"') {
        let (name, _) = unquote_c(s).ok_or(ParseError::BadQuotedPath { line })?;
        return Ok(name);
    }
    let end = s.iter().position(|&b| b == b'\t').unwrap_or(s.len());
    Ok(s[..end].to_vec())
}

/// A `---`/`+++` name: `None` for `/dev/null`, else `-p1`-stripped.
fn file_line_name(s: &[u8], line: usize, strip: usize) -> Result<Option<Vec<u8>>, ParseError> {
    let name = name_field(s, line)?;
    if name == b"/dev/null" {
        return Ok(None);
    }
    if name.is_empty() {
        return Err(ParseError::MissingFileName {
            line,
            reason: "empty name on ---/+++ line",
        });
    }
    Ok(Some(strip_components(&name, strip)))
}

/// The two names of a `diff --git` line when they can be told apart: both
/// quoted, one quoted, or unquoted and equal after removing the first
/// component (git's rule; renames with spaces rely on the other headers).
type NamePair = Option<(Vec<u8>, Vec<u8>)>;

fn git_header_names(rest: &[u8], line: usize, strip: usize) -> Result<NamePair, ParseError> {
    if rest.first() == Some(&b'"') {
        let (a, n) = unquote_c(rest).ok_or(ParseError::BadQuotedPath { line })?;
        let tail = rest[n..].strip_prefix(b" ").unwrap_or(&rest[n..]);
        let b = if tail.first() == Some(&b'"') {
            unquote_c(tail).ok_or(ParseError::BadQuotedPath { line })?.0
        } else {
            tail.to_vec()
        };
        return Ok(Some((
            strip_components(&a, strip),
            strip_components(&b, strip),
        )));
    }
    // Unquoted first name; the second may be quoted.
    if let Some(q) = rest.windows(2).position(|w| w == b" \"") {
        if let Some((b, n)) = unquote_c(&rest[q + 1..]) {
            if q + 1 + n == rest.len() {
                return Ok(Some((
                    strip_components(&rest[..q], strip),
                    strip_components(&b, strip),
                )));
            }
        }
    }
    // Both unquoted: find a split where both sides agree after -p1.
    for (sp, _) in rest.iter().enumerate().filter(|(_, &b)| b == b' ') {
        let (a, b) = (&rest[..sp], &rest[sp + 1..]);
        let (sa, sb) = (strip_components(a, strip), strip_components(b, strip));
        if sa == sb && a.contains(&b'/') && b.contains(&b'/') {
            return Ok(Some((sa, sb)));
        }
    }
    Ok(None)
}

impl<'a> Parser<'a> {
    fn line(&self, i: usize) -> &'a [u8] {
        let (s, e) = self.lines[i];
        &self.input[s..e]
    }

    fn raw(&self, i: usize) -> Vec<u8> {
        self.line(i).to_vec()
    }

    fn git_file(&mut self) -> Result<FilePatch, ParseError> {
        let first = self.i;
        let lno = first + 1;
        let head = chomp(self.line(first));
        let rest = &head[b"diff --git ".len()..];
        let names = git_header_names(rest, lno, self.strip)?;
        let mut fp = FilePatch {
            is_git: true,
            ..FilePatch::default()
        };
        fp.header.push(HeaderLine {
            kind: HeaderKind::DiffGit,
            raw: self.raw(first),
        });
        self.i += 1;
        let (mut old_name, mut new_name) = match &names {
            Some((a, b)) => (Some(a.clone()), Some(b.clone())),
            None => (None, None),
        };
        let mut created = false;
        let mut deleted = false;
        let mut saw_file_lines = false;
        while self.i < self.lines.len() {
            let l = self.line(self.i);
            let ln = self.i + 1;
            let c = chomp(l);
            let kind;
            if let Some(v) = c.strip_prefix(b"old mode ") {
                fp.old_mode = Some(parse_octal(v).ok_or(ParseError::BadNumber {
                    line: ln,
                    what: "mode",
                })?);
                kind = HeaderKind::OldMode;
            } else if let Some(v) = c.strip_prefix(b"new mode ") {
                fp.new_mode = Some(parse_octal(v).ok_or(ParseError::BadNumber {
                    line: ln,
                    what: "mode",
                })?);
                kind = HeaderKind::NewMode;
            } else if let Some(v) = c.strip_prefix(b"deleted file mode ") {
                fp.old_mode = Some(parse_octal(v).ok_or(ParseError::BadNumber {
                    line: ln,
                    what: "mode",
                })?);
                deleted = true;
                kind = HeaderKind::DeletedFileMode;
            } else if let Some(v) = c.strip_prefix(b"new file mode ") {
                fp.new_mode = Some(parse_octal(v).ok_or(ParseError::BadNumber {
                    line: ln,
                    what: "mode",
                })?);
                created = true;
                kind = HeaderKind::NewFileMode;
            } else if let Some(v) = c.strip_prefix(b"copy from ") {
                old_name = Some(name_field(v, ln)?);
                fp.is_copy = true;
                kind = HeaderKind::CopyFrom;
            } else if let Some(v) = c.strip_prefix(b"copy to ") {
                new_name = Some(name_field(v, ln)?);
                fp.is_copy = true;
                kind = HeaderKind::CopyTo;
            } else if let Some(v) = c
                .strip_prefix(b"rename from ")
                .or_else(|| c.strip_prefix(b"rename old "))
            {
                old_name = Some(name_field(v, ln)?);
                fp.is_rename = true;
                kind = HeaderKind::RenameFrom;
            } else if let Some(v) = c
                .strip_prefix(b"rename to ")
                .or_else(|| c.strip_prefix(b"rename new "))
            {
                new_name = Some(name_field(v, ln)?);
                fp.is_rename = true;
                kind = HeaderKind::RenameTo;
            } else if let Some(v) = c.strip_prefix(b"similarity index ") {
                let v = v.strip_suffix(b"%").unwrap_or(v);
                fp.similarity = Some(parse_dec(v).ok_or(ParseError::BadNumber {
                    line: ln,
                    what: "similarity index",
                })? as u32);
                kind = HeaderKind::Similarity;
            } else if let Some(v) = c.strip_prefix(b"dissimilarity index ") {
                let v = v.strip_suffix(b"%").unwrap_or(v);
                fp.dissimilarity = Some(parse_dec(v).ok_or(ParseError::BadNumber {
                    line: ln,
                    what: "dissimilarity index",
                })? as u32);
                kind = HeaderKind::Dissimilarity;
            } else if let Some(v) = c.strip_prefix(b"index ") {
                let (ids, mode) = match v.iter().position(|&b| b == b' ') {
                    Some(p) => (&v[..p], Some(&v[p + 1..])),
                    None => (v, None),
                };
                let dots =
                    ids.windows(2)
                        .position(|w| w == b"..")
                        .ok_or(ParseError::BadNumber {
                            line: ln,
                            what: "index line",
                        })?;
                let mode = match mode {
                    Some(m) => Some(parse_octal(m).ok_or(ParseError::BadNumber {
                        line: ln,
                        what: "mode",
                    })?),
                    None => None,
                };
                if let Some(m) = mode {
                    fp.old_mode.get_or_insert(m);
                    fp.new_mode.get_or_insert(m);
                }
                fp.index = Some(IndexLine {
                    old: ids[..dots].to_vec(),
                    new: ids[dots + 2..].to_vec(),
                    mode,
                });
                kind = HeaderKind::Index;
            } else if let Some(v) = c.strip_prefix(b"--- ") {
                let nl = self.i + 1;
                if nl >= self.lines.len() || !self.line(nl).starts_with(b"+++ ") {
                    return Err(ParseError::MissingNewFileLine { line: ln });
                }
                let o = file_line_name(v, ln, self.strip)?;
                let n = file_line_name(&chomp(self.line(nl))[4..], nl + 1, self.strip)?;
                if o.is_none() {
                    created = true;
                } else if !fp.is_rename && !fp.is_copy {
                    old_name = o;
                }
                if n.is_none() {
                    deleted = true;
                } else if !fp.is_rename && !fp.is_copy {
                    new_name = n;
                }
                fp.header.push(HeaderLine {
                    kind: HeaderKind::OldFile,
                    raw: self.raw(self.i),
                });
                fp.header.push(HeaderLine {
                    kind: HeaderKind::NewFile,
                    raw: self.raw(nl),
                });
                self.i += 2;
                saw_file_lines = true;
                break;
            } else if c.starts_with(b"Binary files ") && c.ends_with(b" differ") {
                fp.binary = Some(Binary::Marker);
                kind = HeaderKind::BinaryFiles;
            } else if c == b"GIT binary patch" {
                let start = self.i;
                self.i += 1;
                let forward = self.binary_hunk()?.ok_or(ParseError::BadBinary {
                    line: ln,
                    reason: "no literal/delta block",
                })?;
                let reverse = self.binary_hunk()?;
                let mut raw = Vec::new();
                for k in start..self.i {
                    raw.extend_from_slice(self.line(k));
                }
                fp.header.push(HeaderLine {
                    kind: HeaderKind::GitBinary,
                    raw,
                });
                fp.binary = Some(Binary::Git { forward, reverse });
                break;
            } else {
                break;
            }
            fp.header.push(HeaderLine {
                kind,
                raw: self.raw(self.i),
            });
            self.i += 1;
        }
        if !saw_file_lines && self.i < self.lines.len() && self.line(self.i).starts_with(b"@@ -") {
            return Err(ParseError::HunkWithoutFileHeader { line: self.i + 1 });
        }
        if old_name.is_none() && !created || new_name.is_none() && !deleted {
            // A rename/copy with only one side, or an unsplittable header.
            if old_name.is_none() && new_name.is_none() {
                return Err(ParseError::MissingFileName {
                    line: lno,
                    reason: "`diff --git` names are ambiguous and no other header names the file",
                });
            }
            if old_name.is_none() {
                old_name.clone_from(&new_name);
            } else {
                new_name.clone_from(&old_name);
            }
        }
        fp.old_path = if created { None } else { old_name };
        fp.new_path = if deleted { None } else { new_name };
        if fp.old_path.is_none() && fp.new_path.is_none() {
            return Err(ParseError::MissingFileName {
                line: lno,
                reason: "file is both created and deleted",
            });
        }
        Ok(fp)
    }

    /// One `literal N`/`delta N` block followed by its data lines and a blank line.
    fn binary_hunk(&mut self) -> Result<Option<BinaryHunk>, ParseError> {
        if self.i >= self.lines.len() {
            return Ok(None);
        }
        let ln = self.i + 1;
        let c = chomp(self.line(self.i));
        let (method, v) = if let Some(v) = c.strip_prefix(b"literal ") {
            (BinaryMethod::Literal, v)
        } else if let Some(v) = c.strip_prefix(b"delta ") {
            (BinaryMethod::Delta, v)
        } else {
            return Ok(None);
        };
        let size = parse_dec(v).ok_or(ParseError::BadNumber {
            line: ln,
            what: "binary size",
        })? as u64;
        self.i += 1;
        let mut deflated = Vec::new();
        loop {
            if self.i >= self.lines.len() {
                return Err(ParseError::BadBinary {
                    line: self.i,
                    reason: "missing blank line after data",
                });
            }
            let c = chomp(self.line(self.i));
            self.i += 1;
            if c.is_empty() {
                break;
            }
            crate::binary::decode_base85_line(c, &mut deflated).ok_or(ParseError::BadBinary {
                line: self.i,
                reason: "bad base85 data line",
            })?;
        }
        Ok(Some(BinaryHunk {
            method,
            size,
            deflated,
        }))
    }

    fn traditional_file(&mut self) -> Result<FilePatch, ParseError> {
        let ln = self.i + 1;
        let o = file_line_name(&chomp(self.line(self.i))[4..], ln, self.strip)?;
        let n = file_line_name(&chomp(self.line(self.i + 1))[4..], ln + 1, self.strip)?;
        if o.is_none() && n.is_none() {
            return Err(ParseError::MissingFileName {
                line: ln,
                reason: "both names are /dev/null",
            });
        }
        let fp = FilePatch {
            header: vec![
                HeaderLine {
                    kind: HeaderKind::OldFile,
                    raw: self.raw(self.i),
                },
                HeaderLine {
                    kind: HeaderKind::NewFile,
                    raw: self.raw(self.i + 1),
                },
            ],
            old_path: o,
            new_path: n,
            ..FilePatch::default()
        };
        self.i += 2;
        Ok(fp)
    }

    fn hunks(&mut self, fp: &mut FilePatch) -> Result<(), ParseError> {
        while self.i < self.lines.len() && self.line(self.i).starts_with(b"@@ -") {
            let h = self.hunk()?;
            fp.hunks.push(h);
        }
        Ok(())
    }

    fn hunk(&mut self) -> Result<Hunk, ParseError> {
        let hl = self.i + 1;
        let raw_header = self.line(self.i);
        let (os, ol, ns, nl) =
            parse_hunk_header(chomp(raw_header)).ok_or_else(|| ParseError::BadHunkHeader {
                line: hl,
                text: String::from_utf8_lossy(chomp(raw_header)).into_owned(),
            })?;
        if ol == 0 && nl == 0 {
            return Err(ParseError::EmptyHunk { line: hl });
        }
        self.i += 1;
        let (mut rem_old, mut rem_new) = (ol, nl);
        // The counts are claims of the input: never reserve more lines than
        // the input has left.
        let left = self.lines.len().saturating_sub(self.i);
        let mut lines: Vec<HunkLine> = Vec::with_capacity(ol.max(nl).min(left));
        while rem_old > 0 || rem_new > 0 {
            let ln = self.i + 1;
            if self.i >= self.lines.len() {
                return Err(ParseError::TruncatedHunk {
                    line: ln,
                    hunk_line: hl,
                    missing_old: rem_old,
                    missing_new: rem_new,
                });
            }
            let l = self.line(self.i);
            let kind = match l.first() {
                Some(b' ') | Some(b'\n') => LineKind::Context,
                Some(b'-') => LineKind::Remove,
                Some(b'+') => LineKind::Add,
                Some(b'\\') => {
                    match lines.last_mut() {
                        Some(prev) if prev.no_newline.is_none() => {
                            prev.no_newline = Some(l.to_vec())
                        }
                        _ => return Err(ParseError::OrphanNoNewline { line: ln }),
                    }
                    self.i += 1;
                    continue;
                }
                _ => {
                    return Err(ParseError::TruncatedHunk {
                        line: ln,
                        hunk_line: hl,
                        missing_old: rem_old,
                        missing_new: rem_new,
                    });
                }
            };
            match kind {
                LineKind::Context => {
                    if rem_old == 0 || rem_new == 0 {
                        let which = if rem_old == 0 {
                            "pre-image"
                        } else {
                            "post-image"
                        };
                        return Err(ParseError::HunkOverflow {
                            line: ln,
                            hunk_line: hl,
                            which,
                        });
                    }
                    rem_old -= 1;
                    rem_new -= 1;
                }
                LineKind::Remove => {
                    if rem_old == 0 {
                        return Err(ParseError::HunkOverflow {
                            line: ln,
                            hunk_line: hl,
                            which: "pre-image",
                        });
                    }
                    rem_old -= 1;
                }
                LineKind::Add => {
                    if rem_new == 0 {
                        return Err(ParseError::HunkOverflow {
                            line: ln,
                            hunk_line: hl,
                            which: "post-image",
                        });
                    }
                    rem_new -= 1;
                }
            }
            lines.push(HunkLine {
                kind,
                raw: l.to_vec(),
                no_newline: None,
            });
            self.i += 1;
        }
        // A trailing `\ No newline at end of file` for the last line.
        if self.i < self.lines.len() && self.line(self.i).first() == Some(&b'\\') {
            if let Some(prev) = lines.last_mut() {
                if prev.no_newline.is_none() {
                    prev.no_newline = Some(self.raw(self.i));
                    self.i += 1;
                }
            }
        }
        Ok(Hunk {
            old_start: os,
            old_len: ol,
            new_start: ns,
            new_len: nl,
            header_raw: raw_header.to_vec(),
            patch_line: hl,
            lines,
        })
    }
}

/// `@@ -a[,b] +c[,d] @@...` → (a, b, c, d); omitted lengths are 1.
pub(crate) fn parse_hunk_header(l: &[u8]) -> Option<(usize, usize, usize, usize)> {
    let rest = l.strip_prefix(b"@@ -")?;
    let sp = rest.iter().position(|&b| b == b' ')?;
    let (old, rest) = (&rest[..sp], &rest[sp + 1..]);
    let rest = rest.strip_prefix(b"+")?;
    let sp = rest.iter().position(|&b| b == b' ')?;
    let (new, rest) = (&rest[..sp], &rest[sp + 1..]);
    if !rest.starts_with(b"@@") {
        return None;
    }
    let range = |s: &[u8]| -> Option<(usize, usize)> {
        match s.iter().position(|&b| b == b',') {
            Some(c) => Some((parse_dec(&s[..c])?, parse_dec(&s[c + 1..])?)),
            None => Some((parse_dec(s)?, 1)),
        }
    };
    let (a, b) = range(old)?;
    let (c, d) = range(new)?;
    Some((a, b, c, d))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn rt(s: &[u8]) -> Patch {
        let p = parse_patch(s).expect("parses");
        assert_eq!(p.to_bytes(), s, "round trip");
        p
    }

    #[test]
    fn simple_git_diff() {
        let s = b"diff --git a/x.py b/x.py\nindex 1234567..89abcde 100644\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@ def f():\n a\n-b\n+c\n d\n";
        let p = rt(s);
        assert_eq!(p.files.len(), 1);
        let f = &p.files[0];
        assert_eq!(f.old_path.as_deref(), Some(&b"x.py"[..]));
        assert_eq!(f.op(), FileOp::Modify);
        assert_eq!(f.new_mode, Some(0o100644));
        assert_eq!(f.hunks[0].section().as_ref(), b"def f():");
        assert_eq!(f.hunks[0].removed_lines(), vec![2]);
        assert_eq!(f.hunks[0].added_lines(), vec![2]);
    }

    #[test]
    fn header_variants() {
        let s = b"From abc\nSubject: x\n\ndiff --git \"a/sp ace\\303\\251\" \"b/sp ace\\303\\251\"\nnew file mode 100755\nindex 0000000..e69de29\ndiff --git a/old name b/new name\nsimilarity index 91%\nrename from old name\nrename to new name\ndiff --git a/gone b/gone\ndeleted file mode 100644\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n\\ No newline at end of file\ndiff --git a/bin b/bin\nBinary files a/bin and b/bin differ\n-- \n2.40.0\n";
        let p = rt(s);
        assert_eq!(p.files.len(), 4);
        assert_eq!(p.files[0].op(), FileOp::Create);
        assert_eq!(
            p.files[0].new_path.as_deref(),
            Some("sp ace\u{e9}".as_bytes())
        );
        assert_eq!(p.files[1].op(), FileOp::Rename);
        assert_eq!(p.files[1].old_path.as_deref(), Some(&b"old name"[..]));
        assert_eq!(p.files[1].new_path.as_deref(), Some(&b"new name"[..]));
        assert_eq!(p.files[1].similarity, Some(91));
        assert_eq!(p.files[2].op(), FileOp::Delete);
        assert_eq!(p.files[2].hunks[0].lines[0].content(), b"x");
        assert_eq!(p.files[3].binary, Some(Binary::Marker));
        assert_eq!(p.trailer, b"-- \n2.40.0\n");
        assert_eq!(p.files[0].preamble, b"From abc\nSubject: x\n\n");
    }

    #[test]
    fn traditional_and_crlf() {
        let s = b"Index: a.txt\r\n--- a/a.txt\t2020-01-01\r\n+++ b/a.txt\t2020-01-02\r\n@@ -1,2 +1,2 @@\r\n-x\r\n+y\r\n \r\n";
        let p = rt(s);
        assert!(!p.files[0].is_git);
        assert_eq!(p.files[0].old_path.as_deref(), Some(&b"a.txt"[..]));
        assert_eq!(p.files[0].hunks[0].lines[0].content(), b"x\r\n");
    }

    #[test]
    fn errors_name_lines() {
        let e = parse_patch(b"--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n").unwrap_err();
        assert!(
            matches!(
                e,
                ParseError::TruncatedHunk {
                    line: 7,
                    hunk_line: 3,
                    missing_old: 1,
                    missing_new: 1
                }
            ),
            "{e:?}"
        );
        let e = parse_patch(b"--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n a\n-b\n")
            .expect("extra lines are garbage");
        assert_eq!(e.trailer, b"-b\n");
        let e = parse_patch(b"--- a/x\n+++ b/x\n@@ -1 +1,1 @@\n-a\n-b\n+c\n").unwrap_err();
        assert!(
            matches!(e, ParseError::HunkOverflow { line: 5, .. }),
            "{e:?}"
        );
        let e = parse_patch(b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -x +1 @@\n").unwrap_err();
        assert!(
            matches!(e, ParseError::BadHunkHeader { line: 4, .. }),
            "{e:?}"
        );
        assert!(matches!(
            parse_patch(b"hello\n"),
            Err(ParseError::NoFiles { .. })
        ));
        assert!(matches!(parse_patch(b""), Err(ParseError::NoFiles { .. })));
        let e = parse_patch(b"diff --git a/x b/x\n--- a/x\nfoo\n").unwrap_err();
        assert!(
            matches!(e, ParseError::MissingNewFileLine { line: 2 }),
            "{e:?}"
        );
    }

    #[test]
    fn no_trailing_newline_in_patch() {
        let p = rt(b"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b");
        assert_eq!(p.files[0].hunks[0].lines[1].content(), b"b");
    }
}
