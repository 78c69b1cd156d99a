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
}

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 1] = [Profile::Paper];

    /// The profile's lower-case name (`paper`).
    pub fn name(self) -> &'static str {
        match self {
            Profile::Paper => "paper",
        }
    }

    /// Parse a name produced by [`Profile::name`].
    pub fn from_name(name: &str) -> Option<Profile> {
        match name.to_ascii_lowercase().as_str() {
            "paper" => Some(Profile::Paper),
            _ => None,
        }
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
