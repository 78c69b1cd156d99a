//! Metric profiles: which counting rules apply.
//!
//! A profile selects, per language, the rule tables every metric walker reads.
//! Adding a profile is a data change: a new variant plus its tables, no new
//! walker code.

use serde::{Deserialize, Serialize};

/// A named rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Reproduce, per language, the tools the CodeThread paper used
    /// (radon + complexipy for Python; lizard + gocognit + go-halstead for Go;
    /// rust-code-analysis 0.0.25 for JavaScript, TypeScript, Rust, Java and
    /// C; lizard 1.24.3 CCN only for C++, Ruby and PHP).
    #[default]
    Paper,
    /// One documented rule set for every language (docs/metrics.md,
    /// "Canonical profile"): McCabe cyclomatic complexity, Campbell's
    /// cognitive complexity (SonarSource 1.5, 2021), one Halstead
    /// classification and one logical-line rule, over the functions of
    /// `docs/target-rules.md`; every metric is defined for every function.
    Canonical,
}

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 2] = [Profile::Paper, Profile::Canonical];

    /// The profile's lower-case name (`paper`, `canonical`).
    pub fn name(self) -> &'static str {
        match self {
            Profile::Paper => "paper",
            Profile::Canonical => "canonical",
        }
    }

    /// Parse a name produced by [`Profile::name`].
    pub fn from_name(name: &str) -> Option<Profile> {
        match name.to_ascii_lowercase().as_str() {
            "paper" => Some(Profile::Paper),
            "canonical" => Some(Profile::Canonical),
            _ => None,
        }
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
