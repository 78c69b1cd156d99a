//! `codethread_metrics::Profile::Paper`: one row per language naming the tables of the
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
use super::{complexipy, go_halstead, gocognit, lizard, radon, rca};
use codethread_lizard::LizardLang;

/// The tables of a tool read from the tree: the functions it reports and
/// each metric's rules.
#[derive(Debug)]
pub struct TreeTables {
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
pub struct LizardTables {
    /// The tool the row reproduces (documentation).
    #[allow(dead_code)]
    pub tool: &'static str,
    /// The reader's token table.
    pub reader: &'static LizardLang,
}

/// One language's row.
#[derive(Debug)]
pub enum PaperTables {
    /// Read from the tree by the per-metric walkers.
    Tree(TreeTables),
    /// Read by lizard's token reader.
    Lizard(LizardTables),
}

// radon 6.0.1 (CC, Halstead, LLOC) + complexipy (cognitive).
static PYTHON: PaperTables = PaperTables::Tree(TreeTables {
    tool: "radon 6.0.1 + complexipy",
    functions: &radon::functions::PYTHON,
    cyclomatic: &radon::cyclomatic::PYTHON_RADON,
    cognitive: &complexipy::PYTHON_COMPLEXIPY,
    halstead: &radon::halstead::PAPER,
    lloc: LlocRule::LogicalLines(&radon::lloc::PYTHON_RADON),
});

// lizard (CC, NLOC) + gocognit (cognitive) + go-halstead.
static GO: PaperTables = PaperTables::Tree(TreeTables {
    tool: "lizard + gocognit + go-halstead",
    functions: &lizard::functions::GO,
    cyclomatic: &lizard::cyclomatic::GO_LIZARD,
    cognitive: &gocognit::GO_GOCOGNIT,
    halstead: &go_halstead::PAPER,
    lloc: LlocRule::CodeLines(&lizard::lloc::GO_LIZARD),
});

// rust-code-analysis 0.0.25.
static RUST: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25",
    functions: &rca::functions::RUST,
    cyclomatic: &rca::cyclomatic::RUST_RCA,
    cognitive: &rca::cognitive::RUST_RCA,
    halstead: &rca::halstead::rust::PAPER,
    lloc: LlocRule::Statements(&rca::lloc::RUST_RCA),
});
static JAVASCRIPT: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25",
    functions: &rca::functions::JS,
    cyclomatic: &rca::cyclomatic::JS_RCA,
    cognitive: &rca::cognitive::JS_RCA,
    halstead: &rca::halstead::js::PAPER_JS,
    lloc: LlocRule::Statements(&rca::lloc::JS_RCA),
});
static TYPESCRIPT: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25",
    functions: &rca::functions::TS,
    cyclomatic: &rca::cyclomatic::JS_RCA,
    cognitive: &rca::cognitive::JS_RCA,
    halstead: &rca::halstead::js::PAPER_TS,
    lloc: LlocRule::Statements(&rca::lloc::JS_RCA),
});
static JAVA: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25",
    functions: &rca::functions::JAVA_RCA,
    cyclomatic: &rca::cyclomatic::JAVA_RCA,
    cognitive: &rca::cognitive::JAVA_RCA,
    halstead: &rca::halstead::java::PAPER,
    lloc: LlocRule::Statements(&rca::lloc::JAVA_RCA),
});
static C: PaperTables = PaperTables::Tree(TreeTables {
    tool: "rust-code-analysis 0.0.25 (C++ grammar)",
    functions: &rca::functions::C_RCA,
    cyclomatic: &rca::cyclomatic::C_RCA,
    cognitive: &rca::cognitive::C_RCA,
    halstead: &rca::halstead::c::PAPER,
    lloc: LlocRule::Statements(&rca::lloc::C_RCA),
});

// lizard 1.24.3, CCN only.
static CPP: PaperTables = PaperTables::Lizard(LizardTables {
    tool: "lizard 1.24.3",
    reader: &codethread_lizard::tables::CPP,
});
static RUBY: PaperTables = PaperTables::Lizard(LizardTables {
    tool: "lizard 1.24.3",
    reader: &codethread_lizard::tables::RUBY,
});
static PHP: PaperTables = PaperTables::Lizard(LizardTables {
    tool: "lizard 1.24.3",
    reader: &codethread_lizard::tables::PHP,
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
#[inline]
pub fn paper(lang: Lang) -> &'static PaperTables {
    PAPER.get(lang)
}

impl PaperTables {
    /// The tree tables, `None` for a lizard language.
    pub fn tree(&self) -> Option<&TreeTables> {
        match self {
            PaperTables::Tree(t) => Some(t),
            PaperTables::Lizard(_) => None,
        }
    }
}
