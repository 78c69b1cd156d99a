//! Experimental conditions as data: who writes each PR of a chain.
//!
//! A condition is a string of `H` (human) / `A` (agent) letters, one per
//! step after PR0: the first letter is PR1 (the Implementation Task: restore
//! the stubbed target functions), the second PR2 (the Follow-On Issue: the
//! benchmark's original issue, solved on top of PR1), and further letters
//! further follow-on steps. The paper's conditions are `HH`, `HA`, `AA`;
//! `AH` (agent PR1, human gold PR2) and longer chains (`AAA`, ...) go beyond it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Who writes a PR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Author {
    /// The human original: PR1 = reverse of PR0 (the original functions),
    /// PR2 = the gold patch; later steps need a given human patch.
    Human,
    /// A coding agent (its predictions are imported).
    Agent,
}

/// What a step asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepTask {
    /// PR1: re-implement the stubbed functions.
    Implementation,
    /// PR2 and later: solve an issue on top of the previous PRs.
    FollowOn,
}

/// A chain condition such as `HA`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Condition {
    /// Author of PR1, PR2, ... in order.
    pub steps: Vec<Author>,
}

/// One step of a condition's chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// PR number (1 = PR1).
    pub pr: usize,
    /// Its author.
    pub author: Author,
    /// Its task.
    pub task: StepTask,
    /// Names of the layers it is built on, in order (`PR0`, `PR1`, ...).
    pub on_top_of: Vec<String>,
}

impl Condition {
    /// The paper's conditions: HH, HA, AA.
    pub fn paper() -> Vec<Condition> {
        ["HH", "HA", "AA"]
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect()
    }

    /// The paper's conditions plus AH.
    pub fn with_ah() -> Vec<Condition> {
        ["HH", "HA", "AA", "AH"]
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect()
    }

    /// The steps, PR1 first.
    pub fn plan(&self) -> Vec<Step> {
        self.steps
            .iter()
            .enumerate()
            .map(|(i, a)| Step {
                pr: i + 1,
                author: *a,
                task: if i == 0 {
                    StepTask::Implementation
                } else {
                    StepTask::FollowOn
                },
                on_top_of: (0..=i).map(|k| format!("PR{k}")).collect(),
            })
            .collect()
    }

    /// Layer names PR0..PRk for a chain of this length.
    pub fn layer_names(&self) -> Vec<String> {
        (0..=self.steps.len()).map(|k| format!("PR{k}")).collect()
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for a in &self.steps {
            f.write_str(match a {
                Author::Human => "H",
                Author::Agent => "A",
            })?;
        }
        Ok(())
    }
}

impl FromStr for Condition {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let steps = s
            .chars()
            .map(|c| match c.to_ascii_uppercase() {
                'H' => Ok(Author::Human),
                'A' => Ok(Author::Agent),
                other => Err(format!("condition {s:?}: `{other}` is neither H nor A")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if steps.is_empty() {
            return Err("empty condition".into());
        }
        Ok(Condition { steps })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_plan() {
        let c: Condition = "HAA".parse().unwrap_or(Condition { steps: vec![] });
        assert_eq!(c.to_string(), "HAA");
        let p = c.plan();
        assert_eq!(p.len(), 3);
        assert_eq!(
            (p[0].task, p[0].author),
            (StepTask::Implementation, Author::Human)
        );
        assert_eq!(p[2].on_top_of, vec!["PR0", "PR1", "PR2"]);
        assert!("HX".parse::<Condition>().is_err());
        assert_eq!(
            Condition::paper()
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>(),
            vec!["HH", "HA", "AA"]
        );
    }
}
