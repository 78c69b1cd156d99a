//! Halstead metrics (placeholder; owned by the Halstead engineer).

use crate::FnCtx;

/// Halstead base counts of one function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Halstead {
    /// Distinct operators.
    pub n1: u64,
    /// Distinct operands.
    pub n2: u64,
    /// Total operators.
    #[serde(rename = "N1")]
    pub big_n1: u64,
    /// Total operands.
    #[serde(rename = "N2")]
    pub big_n2: u64,
}

impl Halstead {
    /// n1 + n2.
    pub fn vocabulary(&self) -> u64 {
        self.n1 + self.n2
    }
    /// N1 + N2.
    pub fn length(&self) -> u64 {
        self.big_n1 + self.big_n2
    }
    /// length · log2(vocabulary) (0 when the vocabulary is 0).
    pub fn volume(&self) -> f64 {
        let n = self.vocabulary();
        if n == 0 {
            0.0
        } else {
            self.length() as f64 * (n as f64).log2()
        }
    }
    /// (n1 / 2) · (N2 / n2) (0 when n2 is 0).
    pub fn difficulty(&self) -> f64 {
        if self.n2 == 0 {
            0.0
        } else {
            (self.n1 as f64 / 2.0) * (self.big_n2 as f64 / self.n2 as f64)
        }
    }
    /// difficulty · volume.
    pub fn effort(&self) -> f64 {
        self.difficulty() * self.volume()
    }
}

/// Halstead counts of one function; `None` when the profile's tool does not report them.
pub fn halstead(_ctx: &FnCtx<'_>) -> Option<Halstead> {
    None
}
