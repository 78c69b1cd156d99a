//! The data of a skeleton: options, edits, warnings and skips, below the
//! planner, the Go import pass and the skeletonizer that all use them.

use std::fmt;

use codethread_lang::{ChunkOptions, Lang, ParseBudget};
use serde::{Deserialize, Serialize};

/// What to do with a file that has ERROR/MISSING nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParseErrorPolicy {
    /// Return [`SkeletonError::ParseErrors`](crate::SkeletonError::ParseErrors); nothing is skeletonized.
    #[default]
    Refuse,
    /// Skeletonize the selected functions whose subtree holds no error and
    /// that are not inside an ERROR node, and, by the fallback rule, those
    /// that touch an error but whose body opens and closes with real brace
    /// tokens and holds no error itself (flagged
    /// [`Warning::NearParseError`](crate::Warning::NearParseError)), unless
    /// their stubs add a syntax error (found by halving the group within a
    /// fixed number of re-parses); report the others in
    /// [`Skeleton::skipped`](crate::Skeleton::skipped).
    SkipAffected,
}

/// Options of [`skeletonize`](crate::skeletonize).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Options {
    /// Keep a Python docstring (the first statement of the body) above the
    /// stub. Default `false`: the docstring goes with the body, as in the
    /// CodeThread paper. Comments before a function are always kept.
    pub keep_docs: bool,
    /// Files with syntax errors.
    pub on_parse_errors: ParseErrorPolicy,
    /// Re-parse the skeleton and fail with [`SkeletonError::Verification`](crate::SkeletonError::Verification)
    /// when it has more ERROR/MISSING nodes than the original. Default `true`.
    pub verify: bool,
    /// Limits on each tree-sitter parse (the file, the verifying re-parse):
    /// a file beyond them fails with `LangError::Budget` instead of stalling
    /// the batch or exhausting memory. Default [`ParseBudget::default`].
    #[serde(default)]
    pub parse_budget: ParseBudget,
    /// A repository-level language (an instance's `language`, a
    /// `--lang-hint` option) for the functions that choose the grammar from
    /// a path ([`crate::skeletonize_path`], [`crate::skeletonize_dir`]): with
    /// `Lang::Cpp` a `.h` or `.c` file is C++
    /// (`codethread_lang::Lang::for_source`). Default `None`.
    #[serde(default)]
    pub hint: Option<Lang>,
    /// The largest file [`crate::skeletonize_dir`] reads. Default
    /// [`codethread_lang::io::DEFAULT_MAX_FILE_BYTES`].
    #[serde(default = "default_max_file_bytes")]
    pub max_file_bytes: u64,
    /// Which files [`crate::skeletonize_path`], [`crate::skeletonize_dir`]
    /// and [`crate::skeletonize_source`] parse in chunks of whole top-level
    /// units, one tree at a time (`codethread_lang::ChunkPlan`: memory a
    /// small multiple of the file), and re-parse in the same chunks.
    /// Default `ChunkOptions::default()` (files of 1 MB and more);
    /// `ChunkOptions::NEVER` parses every file whole.
    #[serde(default)]
    pub chunks: ChunkOptions,
    /// Go: write each import the stubs leave unused as a blank import
    /// (`_ "path"`, an alias replaced by `_`), so the file still compiles
    /// (Go rejects unused imports) and the package's `init` still runs; the
    /// edit is one of [`crate::Skeleton::edits`] (its `function` is `import
    /// "path"`). Default `false`: the stubs that leave an import unused get
    /// [`Warning::GoUnusedImport`] instead. PR0 turns it on.
    pub blank_unused_go_imports: bool,
}

impl Options {
    /// Sets [`Options::keep_docs`].
    pub fn keep_docs(mut self, keep_docs: bool) -> Self {
        self.keep_docs = keep_docs;
        self
    }

    /// Sets [`Options::on_parse_errors`].
    pub fn on_parse_errors(mut self, on_parse_errors: ParseErrorPolicy) -> Self {
        self.on_parse_errors = on_parse_errors;
        self
    }

    /// Sets [`Options::verify`].
    pub fn verify(mut self, verify: bool) -> Self {
        self.verify = verify;
        self
    }

    /// Sets [`Options::parse_budget`].
    pub fn parse_budget(mut self, parse_budget: ParseBudget) -> Self {
        self.parse_budget = parse_budget;
        self
    }

    /// Sets [`Options::hint`].
    pub fn hint(mut self, hint: Option<Lang>) -> Self {
        self.hint = hint;
        self
    }

    /// Sets [`Options::max_file_bytes`].
    pub fn max_file_bytes(mut self, max_file_bytes: u64) -> Self {
        self.max_file_bytes = max_file_bytes;
        self
    }

    /// Sets [`Options::chunks`].
    pub fn chunks(mut self, chunks: ChunkOptions) -> Self {
        self.chunks = chunks;
        self
    }

    /// Sets [`Options::blank_unused_go_imports`].
    pub fn blank_unused_go_imports(mut self, blank_unused_go_imports: bool) -> Self {
        self.blank_unused_go_imports = blank_unused_go_imports;
        self
    }
}

fn default_max_file_bytes() -> u64 {
    codethread_lang::io::DEFAULT_MAX_FILE_BYTES
}

impl Default for Options {
    fn default() -> Self {
        Options {
            keep_docs: false,
            on_parse_errors: ParseErrorPolicy::Refuse,
            verify: true,
            parse_budget: ParseBudget::default(),
            hint: None,
            max_file_bytes: default_max_file_bytes(),
            chunks: ChunkOptions::default(),
            blank_unused_go_imports: false,
        }
    }
}

/// A stub that parses but will not type-check as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Warning {
    /// Rust `-> impl Trait`: `todo!()` gives the opaque type no concrete type
    /// (E0277 / E0720-style errors).
    ImplTraitReturn,
    /// TypeScript constructor of a derived class: TS2377 requires a `super()`
    /// call, which the stub removes.
    DerivedConstructor,
    /// Go: the stub removes the last use of an imported package, and Go
    /// rejects unused imports (`imported and not used`).
    GoUnusedImport,
    /// C++ `constexpr` / `consteval` function: the stub is allowed in its
    /// body (C++14 and later) but is not a constant expression, so a use of
    /// the function in a constant expression (`static_assert`, a template
    /// argument, a `constexpr` variable) no longer compiles.
    ConstexprStub,
    /// C++ function with a deduced return type (`auto f() { ... }` without a
    /// trailing return type): with the stub the type deduces to `void`, so
    /// a use of the result no longer compiles.
    DeducedReturnType,
    /// The function touches a syntax error of the original (an unexpanded
    /// macro near it, most often), so it was stubbed by the fallback rule:
    /// its body's braces are real tokens without an error inside, and the
    /// file with the stubs it keeps parses with no more errors than the
    /// original. Whether it compiles is the project build's to say.
    NearParseError,
}

impl Warning {
    /// The warning's `snake_case` name, as in JSON.
    pub fn code(self) -> &'static str {
        match self {
            Warning::ImplTraitReturn => "impl_trait_return",
            Warning::DerivedConstructor => "derived_constructor",
            Warning::GoUnusedImport => "go_unused_import",
            Warning::ConstexprStub => "constexpr_stub",
            Warning::DeducedReturnType => "deduced_return_type",
            Warning::NearParseError => "near_parse_error",
        }
    }

    /// Whether a file with this stub fails to compile whatever uses the
    /// function: a deduced C++ return type becomes `void` (every use of the
    /// result is an error), Rust `-> impl Trait` has no concrete type, a
    /// TypeScript derived constructor lacks `super()`. The other warnings
    /// compile in a default build (a `constexpr` stub fails only where it is
    /// evaluated at compile time), or are a file-level matter the caller
    /// reports (a Go import left unused, which `goimports` removes).
    pub fn breaks_build(self) -> bool {
        matches!(
            self,
            Warning::ImplTraitReturn | Warning::DerivedConstructor | Warning::DeducedReturnType
        )
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Warning::ImplTraitReturn => {
                "returns `impl Trait`: `todo!()` leaves the opaque type without a concrete type, so the stub does not type-check"
            }
            Warning::DerivedConstructor => {
                "constructor of a derived class: TypeScript requires a super() call (TS2377), which the stub removes"
            }
            Warning::GoUnusedImport => {
                "the stub removes the last use of an imported package; Go rejects unused imports"
            }
            Warning::ConstexprStub => {
                "constexpr/consteval function: the stub is not a constant expression, so compile-time uses of the function no longer compile"
            }
            Warning::DeducedReturnType => {
                "deduced return type: with the stub it deduces to void, so uses of the result no longer compile"
            }
            Warning::NearParseError => {
                "the function touches a syntax error of the original; stubbed because its body's braces are real tokens and the stub adds no syntax error"
            }
        })
    }
}

/// One body replacement, in the coordinates of the original text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// The function: its qualname, with `#occurrence` when the qualname is not
    /// unique in the file (the target-id convention).
    pub function: String,
    /// 1-based line of the function's own node (the `def` / `fn` / `func`
    /// line, after decorators).
    pub line: usize,
    /// The function's definition span in bytes of the original
    /// (`Function::span`): its identity, as a [`crate::Selector::Span`]
    /// gives it. `None` for an import made blank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<std::ops::Range<usize>>,
    /// First replaced byte of the original.
    pub start_byte: usize,
    /// One past the last replaced byte of the original.
    pub end_byte: usize,
    /// The text that replaces `start_byte..end_byte`.
    pub replacement: String,
    /// Reasons the stub may not type-check.
    pub warnings: Vec<Warning>,
}

/// Why a selected function was not edited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason", content = "detail")]
pub enum SkipReason {
    /// No body: Rust trait signature, TS overload / abstract method, Go
    /// assembly stub.
    NoBody,
    /// A Python `@overload` stub.
    Overload,
    /// The body already is exactly the stub.
    AlreadyStub,
    /// A body form no stub can replace (Python lambdas).
    Unsupported(String),
    /// The function touches a syntax error (with
    /// [`ParseErrorPolicy::SkipAffected`]), or its body is not in the
    /// expected shape.
    ParseError(String),
}

/// A selected function that was left as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Qualname (with `#occurrence` when not unique).
    pub function: String,
    /// 1-based line of the function's own node.
    pub line: usize,
    /// The function's definition span in bytes of the original (as
    /// [`Edit::span`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<std::ops::Range<usize>>,
    /// Why.
    pub reason: SkipReason,
}
