//! The Implementation Task statement: what the agent that writes PR1 is told.
//!
//! Three ways to get one:
//! * [`llm_request`]: a provider-neutral chat request (JSONL-ready) that
//!   carries what the paper's prompt carries: repository, language, files,
//!   and for each target function its name, location and original source;
//!   the answer must have a `Task Overview` and, per function, `Summary`,
//!   `Args`, `Returns`, `Raises`, `Implementation Steps`, `Edge Cases`,
//!   without code.
//! * [`import_answers`] + [`statement_from_answer`]: the model's answers
//!   (OpenAI chat / batch, Anthropic batch, or plain `{custom_id, content}`)
//!   turned into task statements, with code blocks removed and missing
//!   sections reported.
//! * [`offline_statement`]: a deterministic statement from each target's
//!   signature, location and original docstring, so that the pipeline runs
//!   end to end without any model.

use codethread_lang::{Function, Lang};
use serde::{Deserialize, Serialize};
use serde_json::json;

use codethread_bench::Instance;
use codethread_llm::{ChatMessage, LlmRequest};

/// What the statement needs to know about one target function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetInfo {
    /// Repository path of the file.
    pub path: String,
    /// Target id `path::qualname[#n]`.
    pub target_id: String,
    /// Qualified name.
    pub qualname: String,
    /// Bare name.
    pub name: String,
    /// `function`, `method` or `nested`.
    pub kind: String,
    /// First line of the definition (1-based).
    pub start_line: usize,
    /// Last line of the definition (1-based).
    pub end_line: usize,
    /// The line of the function's own node in PR0 (1-based), where the
    /// agent finds its stub; 0 when not known.
    #[serde(default)]
    pub pr0_line: usize,
    /// The header: from the function's own node to the body opener.
    pub signature: String,
    /// The original documentation (Python docstring; comment block just
    /// above the definition for the other languages), cleaned.
    pub docstring: Option<String>,
    /// The original definition text (UTF-8, lossy).
    pub original_source: String,
}

impl TargetInfo {
    /// Build from an indexed function and the file's bytes.
    pub fn from_function(path: &str, f: &Function, source: &[u8]) -> TargetInfo {
        let slice = |a: usize, b: usize| {
            String::from_utf8_lossy(source.get(a..b.min(source.len())).unwrap_or(&[])).into_owned()
        };
        let signature = slice(f.header.start_byte, f.header.end_byte)
            .trim_end()
            .to_string();
        TargetInfo {
            path: path.to_string(),
            target_id: f.target_id(path),
            qualname: f.qualname.clone(),
            name: f.name.clone(),
            kind: f.kind.as_str().to_string(),
            start_line: f.span.start_line,
            end_line: f.span.end_line,
            pr0_line: 0,
            signature,
            docstring: docstring_of(path, f, source),
            original_source: slice(f.span.start_byte, f.span.end_byte),
        }
    }
}

/// The context of one Implementation Task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskContext {
    /// The instance.
    pub instance_id: String,
    /// `owner/name`.
    pub repo: String,
    /// Language name (e.g. `python`).
    pub language: String,
    /// The targets, in file then source order.
    pub targets: Vec<TargetInfo>,
}

impl TaskContext {
    /// The info string of the code fences showing this task's sources:
    /// [`Lang::fence`] of the task's language (its name when unknown).
    pub fn fence(&self) -> &str {
        match Lang::from_name(&self.language) {
            Some(l) => l.fence(),
            None => self.language.as_str(),
        }
    }

    /// The distinct files, in order of first appearance.
    pub fn files(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for t in &self.targets {
            if !out.contains(&t.path.as_str()) {
                out.push(&t.path);
            }
        }
        out
    }
}

/// The statement context of a localized instance and its PR0 (what
/// `pipeline::build` gives the statement writer and the checks): the
/// targets with their original text and their line in PR0, the repository
/// and the language. Only targets PR0 stubs with a stub of their own are
/// in it: a target nested in a stubbed one is part of that one's body
/// (folded into it, never a separate function to write "at line N"), and a
/// target PR0 could not stub is left as it is.
pub fn task_context(
    inst: &Instance,
    loc: &crate::targets::InstanceTargets,
    pr0: &crate::pr0::Pr0,
) -> TaskContext {
    let targets: Vec<TargetInfo> = loc
        .targets
        .iter()
        .filter_map(|t| {
            let line = *pr0.lines.get(&t.target_id)?;
            let mut info = TargetInfo::from_function(
                &t.path,
                &t.function,
                loc.before.get(&t.path).map(Vec::as_slice).unwrap_or(&[]),
            );
            info.pr0_line = line;
            Some(info)
        })
        .collect();
    let hint = inst.lang_hint();
    let language = targets
        .iter()
        .find_map(|t| {
            let src = loc.before.get(&t.path).map(Vec::as_slice).unwrap_or(&[]);
            codethread_lang::Lang::for_source(&t.path, src, hint)
        })
        .map(|l| l.name().to_string())
        .or_else(|| inst.language.clone())
        .unwrap_or_else(|| "unknown".into());
    TaskContext {
        instance_id: inst.instance_id.clone(),
        repo: inst.repo.clone(),
        language,
        targets,
    }
}

/// Section headings every answer (and every statement) carries per function.
pub(crate) const FUNCTION_SECTIONS: [&str; 6] = [
    "Summary",
    "Args",
    "Returns",
    "Raises",
    "Implementation Steps",
    "Edge Cases",
];

const SYSTEM_PROMPT: &str = "You write implementation task descriptions for software engineers. \
You are shown functions from a real repository. Describe what each function must do so that an engineer who \
cannot see the code could re-implement it. Never include code: no code blocks, no statements copied from the \
source. Refer to other functions, classes and parameters by name only.";

/// The chat request for one task.
pub fn llm_request(ctx: &TaskContext) -> LlmRequest {
    let mut u = String::new();
    u.push_str(&format!(
        "Repository: {}\nLanguage: {}\nFiles:\n",
        ctx.repo, ctx.language
    ));
    for f in ctx.files() {
        u.push_str(&format!("- {f}\n"));
    }
    u.push_str(&format!(
        "\nThe {} function(s) below will be removed from the repository (their bodies replaced by stubs). \
Write the task statement an engineer will receive to implement them again.\n",
        ctx.targets.len()
    ));
    for (i, t) in ctx.targets.iter().enumerate() {
        u.push_str(&format!(
            "\n### Function {}: `{}` ({}, {} lines {}-{})\n```{}\n{}\n```\n",
            i + 1,
            t.qualname,
            t.kind,
            t.path,
            t.start_line,
            t.end_line,
            ctx.fence(),
            t.original_source.trim_end()
        ));
    }
    u.push_str("\nAnswer in Markdown with exactly this structure and no code:\n\n## Task Overview\n<what the change as a whole achieves>\n");
    for t in &ctx.targets {
        u.push_str(&format!("\n## Function: `{}` ({})\n", t.qualname, t.path));
        for s in FUNCTION_SECTIONS {
            u.push_str(&format!("### {s}\n"));
        }
    }
    LlmRequest {
        custom_id: ctx.instance_id.clone(),
        messages: vec![
            ChatMessage {
                role: "system".into(),
                content: SYSTEM_PROMPT.into(),
            },
            ChatMessage {
                role: "user".into(),
                content: u,
            },
        ],
        metadata: json!({
            "instance_id": ctx.instance_id,
            "repo": ctx.repo,
            "language": ctx.language,
            "files": ctx.files(),
            "targets": ctx.targets.iter().map(|t| t.target_id.clone()).collect::<Vec<_>>(),
        }),
    }
}

/// The deterministic statement built without a model.
pub fn offline_statement(ctx: &TaskContext) -> String {
    let mut s = String::new();
    s.push_str("## Task Overview\n");
    s.push_str(&format!(
        "In the repository `{}` ({}), the bodies of {} function(s) in {} have been replaced by stubs. \
Implement them again so that they behave as described below and as the rest of the code base expects.\n",
        ctx.repo,
        ctx.language,
        ctx.targets.len(),
        ctx.files().iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
    ));
    for t in &ctx.targets {
        s.push_str(&format!("\n## Function: `{}` ({})\n", t.qualname, t.path));
        s.push_str("### Summary\n");
        match &t.docstring {
            Some(d) => s.push_str(&format!("{d}\n")),
            None => s.push_str(&format!("Implement the {} `{}`.\n", t.kind, t.name)),
        }
        s.push_str(&format!(
            "### Args\nAs declared by the signature:\n\n    {}\n",
            t.signature.replace('\n', "\n    ")
        ));
        s.push_str(
            "### Returns\nAs documented above, and as the callers of this function expect.\n",
        );
        s.push_str(
            "### Raises\nAs documented above, and as the callers of this function expect.\n",
        );
        let at = if t.pr0_line > 0 {
            format!(" at {} line {}", t.path, t.pr0_line)
        } else {
            format!(" in {}", t.path)
        };
        s.push_str(&format!(
            "### Implementation Steps\nWrite the body of `{}`{at}, where it is now a stub.\n",
            t.qualname
        ));
        s.push_str("### Edge Cases\nKeep the behaviour the existing tests and callers rely on.\n");
    }
    s
}

/// A statement made from a model's answer, with what had to be fixed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedStatement {
    /// The instance.
    pub instance_id: String,
    /// The statement (code blocks removed).
    pub statement: String,
    /// Problems: `code_block_removed`, `missing_section: Task Overview`,
    /// `missing_function: path::qualname`.
    pub warnings: Vec<String>,
}

/// Turn an answer into a statement: fenced code blocks are removed (the
/// answer must carry no code); missing sections and functions are reported.
pub fn statement_from_answer(ctx: &TaskContext, answer: &str) -> ImportedStatement {
    let mut warnings = Vec::new();
    let mut out = String::new();
    let mut in_fence = false;
    let mut removed = false;
    for line in answer.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            removed = true;
            continue;
        }
        if !in_fence {
            out.push_str(line);
        }
    }
    if removed {
        warnings.push("code_block_removed".to_string());
    }
    if !out.contains("Task Overview") {
        warnings.push("missing_section: Task Overview".to_string());
    }
    for t in &ctx.targets {
        if !out.contains(&t.qualname) && !out.contains(&t.name) {
            warnings.push(format!("missing_function: {}", t.target_id));
        }
    }
    for s in FUNCTION_SECTIONS {
        if !out.contains(s) {
            warnings.push(format!("missing_section: {s}"));
        }
    }
    ImportedStatement {
        instance_id: ctx.instance_id.clone(),
        statement: out,
        warnings,
    }
}

/// The documentation of a function, from the text: a Python docstring (the
/// first statement of the body, when it is a string literal); otherwise the
/// run of comment lines (`//`, `///`, `/* */`, and the language's own line
/// comment, [`Lang::line_comment`]: `#` for Python and Ruby) directly above
/// the definition.
pub(crate) fn docstring_of(path: &str, f: &Function, source: &[u8]) -> Option<String> {
    let lang = Lang::for_source(path, source, None);
    let is_py = lang == Some(Lang::Python);
    let line_comment = lang.map_or("//", Lang::line_comment);
    if is_py {
        if let Some(b) = &f.body {
            if let Some(d) =
                python_docstring(source.get(b.start_byte..b.end_byte.min(source.len()))?)
            {
                return Some(d);
            }
        }
    }
    // Comment block above the span.
    let before = source.get(..f.span.start_byte)?;
    let text = String::from_utf8_lossy(before);
    let mut lines: Vec<&str> = text.lines().collect();
    // Drop the (partial) line the span starts on.
    if !text.ends_with('\n') {
        lines.pop();
    }
    let mut doc: Vec<String> = Vec::new();
    // Inside a `/* … */` block read upward: where its lines start in `doc`.
    let mut block_start: Option<usize> = None;
    while let Some(l) = lines.pop() {
        let t = l.trim();
        if let Some(start) = block_start {
            if t.contains("*/") {
                // Another block ends here before this one opened: the text
                // between is code (`#else /*}*/` above `int main(`).
                doc.truncate(start);
                break;
            }
            if let Some(at) = t.find("/*") {
                if at > 0 {
                    // Code before the opener: not a comment block.
                    doc.truncate(start);
                    break;
                }
                block_start = None;
            }
            doc.push(
                t.trim_start_matches("/**")
                    .trim_start_matches("/*")
                    .trim_start_matches('*')
                    .trim()
                    .to_string(),
            );
            continue;
        }
        if t.ends_with("*/") {
            match t.find("/*") {
                // A comment after code on its line (`#else /*}*/`,
                // `int x; /* … */`) is no documentation.
                Some(at) if at > 0 => break,
                Some(_) => {}
                None => block_start = Some(doc.len()),
            }
            doc.push(
                t.trim_end_matches("*/")
                    .trim_start_matches("/**")
                    .trim_start_matches("/*")
                    .trim_start_matches('*')
                    .trim()
                    .to_string(),
            );
            continue;
        }
        if let Some(c) = t
            .strip_prefix("///")
            .or_else(|| t.strip_prefix("//!"))
            .or_else(|| t.strip_prefix("//"))
        {
            doc.push(c.trim().to_string());
            continue;
        }
        if let Some(c) = t.strip_prefix(line_comment) {
            doc.push(c.trim().to_string());
            continue;
        }
        break;
    }
    if let Some(start) = block_start {
        // The file began inside the block: no opener, no comment.
        doc.truncate(start);
    }
    doc.reverse();
    let s = doc.join("\n").trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn python_docstring(body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    let t = text.trim_start();
    let t = t.trim_start_matches(['r', 'R', 'u', 'U', 'b', 'B']);
    let q = ["\"\"\"", "'''", "\"", "'"]
        .into_iter()
        .find(|q| t.starts_with(q))?;
    let rest = &t[q.len()..];
    let end = rest.find(q)?;
    let raw = &rest[..end];
    // Dedent like inspect.cleandoc.
    let lines: Vec<&str> = raw.lines().collect();
    let indent = lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: Vec<String> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if i == 0 {
            out.push(l.trim().to_string());
        } else {
            out.push(
                l.get(indent..)
                    .unwrap_or(l.trim_start())
                    .trim_end()
                    .to_string(),
            );
        }
    }
    let s = out.join("\n").trim().to_string();
    (!s.is_empty()).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use codethread_lang::{index_functions, parse};

    fn ctx(src: &[u8], lang: Lang, path: &str) -> TaskContext {
        let file = parse(lang, src).expect("parse");
        let targets = index_functions(&file)
            .iter()
            .filter(|f| !f.anonymous)
            .map(|f| TargetInfo::from_function(path, f, src))
            .collect();
        TaskContext {
            instance_id: "o__r-1".into(),
            repo: "o/r".into(),
            language: lang.name().into(),
            targets,
        }
    }

    #[test]
    fn python_docstring_and_offline_statement() {
        let src = b"class A:\n    def f(self, x):\n        \"\"\"Add one.\n\n        Returns x + 1.\n        \"\"\"\n        return x + 1\n";
        let c = ctx(src, Lang::Python, "a.py");
        assert_eq!(
            c.targets[0].docstring.as_deref(),
            Some("Add one.\n\nReturns x + 1.")
        );
        assert_eq!(c.targets[0].signature, "def f(self, x):");
        let s = offline_statement(&c);
        assert!(s.starts_with("## Task Overview\n"));
        for sec in FUNCTION_SECTIONS {
            assert!(s.contains(&format!("### {sec}\n")), "{sec}");
        }
        assert!(s.contains("Add one."));
        assert_eq!(s, offline_statement(&c), "deterministic");
        let imported = statement_from_answer(&c, &s);
        assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    }

    #[test]
    fn a_comment_after_code_is_no_documentation() {
        // jq's main (issue 18's validity rule: the statement must not carry
        // code): the line above `int main(` is `#else /*}*/`; the block
        // reader once took it for the end of a block and copied everything
        // up to an earlier `/*`, function bodies included.
        let src = b"/* flags */\nenum { A = 1, /* debugging only */ B = 2 };\nstatic int process(int x) {\n  int ret = x + 4; // code\n  return ret;\n}\n#ifdef WIN32\nint umain(int argc) {\n#else /*}*/\nint main(int argc) {\n#endif\n  return process(argc);\n}\n";
        let c = ctx(src, Lang::C, "src/main.c");
        for t in &c.targets {
            let doc = t.docstring.as_deref().unwrap_or("");
            assert!(!doc.contains("int ret"), "{}: {doc:?}", t.qualname);
        }
        // Real comment blocks above a function are still its documentation.
        let src = b"int x; /* trailing */\n/*\n * Adds one.\n */\nint f(int a) { return a + 1; }\n/** One line. */\nint g(int a) { return a; }\n";
        let c = ctx(src, Lang::C, "a.c");
        let doc = |name: &str| {
            c.targets
                .iter()
                .find(|t| t.qualname == name)
                .and_then(|t| t.docstring.clone())
        };
        assert_eq!(doc("f").as_deref(), Some("Adds one."));
        assert_eq!(doc("g").as_deref(), Some("One line."));
        // A block whose opener follows code on its line is no comment block.
        let src = b"int x = 1; /* starts\n   here */\nint h(void) { return 0; }\n";
        let c = ctx(src, Lang::C, "b.c");
        assert_eq!(c.targets[0].docstring, None);
    }

    #[test]
    fn go_comment_doc_and_request() {
        let src = b"package p\n\n// Sum adds\n// two ints.\nfunc Sum(a, b int) int {\n\treturn a + b\n}\n";
        let c = ctx(src, Lang::Go, "p/sum.go");
        assert_eq!(
            c.targets[0].docstring.as_deref(),
            Some("Sum adds\ntwo ints.")
        );
        let r = llm_request(&c);
        let user = &r.messages[1].content;
        assert!(
            user.contains("Repository: o/r")
                && user.contains("Language: go")
                && user.contains("- p/sum.go")
        );
        assert!(user.contains("return a + b"), "original source carried");
        assert!(user.contains("## Task Overview") && user.contains("### Edge Cases"));
        assert_eq!(
            r.to_openai_batch("m")["body"]["messages"][1]["role"],
            "user"
        );
        assert_eq!(
            r.to_anthropic_batch("m", 4096)["params"]["messages"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
    }

    #[test]
    fn code_is_removed_from_answers() {
        let c = ctx(b"def f():\n    return 1\n", Lang::Python, "a.py");
        let s = statement_from_answer(
            &c,
            "## Task Overview\nx\n```python\nreturn 1\n```\n## Function: `f`\n### Summary\n",
        );
        assert!(!s.statement.contains("return 1"));
        assert!(s.warnings.contains(&"code_block_removed".to_string()));
        assert!(s
            .warnings
            .contains(&"missing_section: Edge Cases".to_string()));
    }
}
