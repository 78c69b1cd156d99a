//! [`crate::Profile::Paper`]: one row per language naming the tables of the
//! reference tool the paper measured it with. Rows are grouped by that tool
//! (as the tables themselves are): radon + complexipy (Python); lizard +
//! gocognit + go-halstead (Go); rust-code-analysis 0.0.25 (Rust, JavaScript,
//! TypeScript, TSX, Java, C); lizard 1.24.3's CCN alone (C++, Ruby, PHP).
//! [`paper`] is the one place a language is mapped to its row.

use codethread_lang::Lang;

use super::cognitive::CogRules;
use super::cyclomatic::CcRules;
use super::functions::FunctionSet;
use super::halstead::HalsteadRules;
use super::lloc::LlocRule;
use super::{cognitive as cog, cyclomatic as cc, functions as fs, halstead as hal, lloc};
use crate::lizard::LizardLang;

/// The tables of a tool read from the tree: the functions it reports and
/// each metric's rules.
#[derive(Debug)]
pub(crate) struct TreeTables {
    /// The tools the row reproduces (documentation).
    #[allow(dead_code)]
    pub tool: &'static str,
    /// Which functions are reported, named and classified how.
    pub functions: &'static FunctionSet,
    /// Cyclomatic complexity.
    pub cyclomatic: &'static CcRules,
    /// Cognitive complexity.
    pub cognitive: &'static CogRules,
    /// Halstead counts.
    pub halstead: &'static HalsteadRules,
    /// Logical lines.
    pub lloc: LlocRule,
}

/// A language measured by lizard's token reader (functions, names and CCN
/// are lizard's; the other metrics are not reported).
#[derive(Debug)]
pub(crate) struct LizardTables {
    /// The tool the row reproduces (documentation).
    #[allow(dead_code)]
    pub tool: &'static str,
    /// The reader's token table.
    pub reader: &'static LizardLang,
}

/// One language's row.
#[derive(Debug)]
pub(crate) enum PaperTables {
    /// Read from the tree by the per-metric walkers.
    Tree(TreeTables),
    /// Read by lizard's token reader.
    Lizard(LizardTables),
}

// radon 6.0.1 (CC, Halstead, LLOC) + complexipy (cognitive).
static PYTHON: PaperTables = PaperTables::Tree(TreeTables {
    tool: "radon 6.0.1 + complexipy",
    functions: &fs::PYTHON,
    cyclomatic: &cc::PYTHON_RADON,
    cognitive: &cog::PYTHON_COMPLEXIPY,
    halstead: &hal::python::PAPER,
    lloc: LlocRule::LogicalLines(&lloc::PYTHON_RADON),
});

// lizard (CC, NLOC) + gocognit (cognitive) + go-halstead.
static GO: PaperTables = PaperTables::Tree(TreeTables {
    tool: "lizard + gocognit + go-halstead",
    functions: &fs::GO,
    cyclomatic: &cc::GO_LIZARD,
    cognitive: &cog::GO_GOCOGNIT,
    halstead: &hal::go::PAPER,
    lloc: LlocRule::CodeLines(&lloc::GO_LIZARD),
});

// rust-code-analysis 0.0.25.
static RUST: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25",
    functions: &fs::RUST,
    cyclomatic: &cc::RUST_RCA,
    cognitive: &cog::RUST_RCA,
    halstead: &hal::rca_rust::PAPER,
    lloc: LlocRule::Statements(&lloc::RUST_RCA),
});
static JAVASCRIPT: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25",
    functions: &fs::JS,
    cyclomatic: &cc::JS_RCA,
    cognitive: &cog::JS_RCA,
    halstead: &hal::rca_js::PAPER_JS,
    lloc: LlocRule::Statements(&lloc::JS_RCA),
});
static TYPESCRIPT: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25",
    functions: &fs::TS,
    cyclomatic: &cc::JS_RCA,
    cognitive: &cog::JS_RCA,
    halstead: &hal::rca_js::PAPER_TS,
    lloc: LlocRule::Statements(&lloc::JS_RCA),
});
static JAVA: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25",
    functions: &fs::JAVA_RCA,
    cyclomatic: &cc::JAVA_RCA,
    cognitive: &cog::JAVA_RCA,
    halstead: &hal::rca_java::PAPER,
    lloc: LlocRule::Statements(&lloc::JAVA_RCA),
});
static C: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25 (C++ grammar)",
    functions: &fs::C_RCA,
    cyclomatic: &cc::C_RCA,
    cognitive: &cog::C_RCA,
    halstead: &hal::rca_c::PAPER,
    lloc: LlocRule::Statements(&lloc::C_RCA),
});

// lizard 1.24.3, CCN only.
static CPP: PaperTables = PaperTables::Lizard(LizardTables {
    tool: "lizard 1.24.3",
    reader: &crate::lizard::tables::CPP,
});
static RUBY: PaperTables = PaperTables::Lizard(LizardTables {
    tool: "lizard 1.24.3",
    reader: &crate::lizard::tables::RUBY,
});
static PHP: PaperTables = PaperTables::Lizard(LizardTables {
    tool: "lizard 1.24.3",
    reader: &crate::lizard::tables::PHP,
});

/// One row per language (`codethread_lang::PerLang`: a missing or
/// misplaced row is a compile error).
static PAPER: codethread_lang::PerLang<&PaperTables> = codethread_lang::PerLang::new([
    (Lang::Python, &PYTHON),
    (Lang::Go, &GO),
    (Lang::Rust, &RUST),
    (Lang::JavaScript, &JAVASCRIPT),
    (Lang::TypeScript, &TYPESCRIPT),
    (Lang::Tsx, &TYPESCRIPT),
    (Lang::Java, &JAVA),
    (Lang::C, &C),
    (Lang::Cpp, &CPP),
    (Lang::Ruby, &RUBY),
    (Lang::Php, &PHP),
]);

/// The paper profile's row for `lang`.
pub(crate) fn paper(lang: Lang) -> &'static PaperTables {
    PAPER.get(lang)
}

impl PaperTables {
    /// The tree tables, `None` for a lizard language.
    #[cfg(test)]
    pub(crate) fn tree(&self) -> Option<&TreeTables> {
        match self {
            PaperTables::Tree(t) => Some(t),
            PaperTables::Lizard(_) => None,
        }
    }
}
