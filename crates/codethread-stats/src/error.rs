//! Typed errors of the analysis crate.

use std::path::PathBuf;

/// Everything that can go wrong while loading data, fitting a model or writing a report.
///
/// Every variant names the file, row (1-based data row, the header is row 0), column,
/// run or instance that caused it, so a user can fix the input.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An input that is not a regular file, is too large, or a symbolic link where links are
    /// refused (the message names the file).
    #[error("{0}")]
    File(#[from] codethread_io::IoError),
    /// A 0/1 flag cell holds something else.
    #[error(
        "{origin}: line {line}, column {column:?}: {value:?} must be 0 or 1 (or empty for unknown)"
    )]
    NotBinary {
        /// File name.
        origin: String,
        /// 1-based line of the file.
        line: u64,
        /// Column name.
        column: String,
        /// The cell text.
        value: String,
    },
    /// A row key that must be unique appears twice.
    #[error("{origin}: duplicate {what} {key:?} on line {first} and line {line}")]
    DuplicateRow {
        /// File name.
        origin: String,
        /// What the key is (e.g. "instance").
        what: String,
        /// The key.
        key: String,
        /// 1-based line of the first occurrence.
        first: u64,
        /// 1-based line of the repeat.
        line: u64,
    },
    /// The CSV could not be tokenised (bad quoting, ragged rows, ...).
    #[error("{origin}: malformed CSV at data row {row}: {message}")]
    Csv {
        /// File name or `<memory>`.
        origin: String,
        /// 1-based data row.
        row: usize,
        /// Description.
        message: String,
    },
    /// A JSON / JSONL document could not be parsed or lacks a field.
    #[error("{origin}: line {line}: {message}")]
    Json {
        /// File name or `<memory>`.
        origin: String,
        /// 1-based line (0 for whole-document errors).
        line: usize,
        /// Description.
        message: String,
    },
    /// The input has no data rows.
    #[error("{origin}: no data rows")]
    Empty {
        /// File name or `<memory>`.
        origin: String,
    },
    /// A column the caller asked for does not exist.
    #[error("{origin}: no column named {column:?} (columns: {available})")]
    MissingColumn {
        /// File name or `<memory>`.
        origin: String,
        /// The requested column.
        column: String,
        /// The columns that do exist, comma-separated.
        available: String,
    },
    /// A cell that must be numeric is not.
    #[error(
        "{origin}: column {column:?}, data row {row}: {value:?} is not a number{}",
        missing_hint(value)
    )]
    NonNumeric {
        /// File name or `<memory>`.
        origin: String,
        /// Column name.
        column: String,
        /// 1-based data row.
        row: usize,
        /// The offending cell text.
        value: String,
    },
    /// A cell is NaN or infinite.
    #[error("{origin}: column {column:?}, data row {row}: non-finite value {value}")]
    NonFinite {
        /// File name or `<memory>`.
        origin: String,
        /// Column name.
        column: String,
        /// 1-based data row.
        row: usize,
        /// The value as parsed.
        value: f64,
    },
    /// The binary outcome has a value other than 0 / 1.
    #[error("{origin}: outcome column {column:?}, data row {row}: {value} is not 0 or 1")]
    NonBinaryOutcome {
        /// File name or `<memory>`.
        origin: String,
        /// Column name.
        column: String,
        /// 1-based data row.
        row: usize,
        /// The value.
        value: f64,
    },
    /// The outcome takes one value only: no model can be fitted.
    #[error("outcome column {column:?} is constant (all {value}); a logistic model needs both 0s and 1s")]
    ConstantOutcome {
        /// Column name.
        column: String,
        /// The single value.
        value: u8,
    },
    /// The design matrix does not have full column rank.
    #[error("design matrix is rank deficient (rank {rank} of {columns}): {detail}")]
    RankDeficient {
        /// Numerical rank.
        rank: usize,
        /// Number of columns including the constant.
        columns: usize,
        /// Columns that are entirely zero.
        zero_columns: Vec<String>,
        /// Linear dependencies found, one per dependent column.
        dependencies: Vec<Dependency>,
        /// Human-readable summary.
        detail: String,
    },
    /// Fewer observations than parameters.
    #[error("{nobs} observations cannot identify {params} parameters")]
    TooFewRows {
        /// Rows.
        nobs: usize,
        /// Parameters.
        params: usize,
    },
    /// A numerical step failed (a singular Hessian although the rank check passed).
    #[error("numerical failure: {0}")]
    Numerical(String),
    /// A leaderboard / results file is inconsistent.
    #[error("{origin}: {message}")]
    Invalid {
        /// File name, run or instance.
        origin: String,
        /// Description.
        message: String,
    },
    /// Drawing a figure failed.
    #[error("figure {name}: {message}")]
    Plot {
        /// The figure.
        name: String,
        /// Description.
        message: String,
    },
}

/// One exact (numerical) linear dependency among design columns.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Dependency {
    /// The column that is a combination of earlier columns.
    pub column: String,
    /// The earlier columns and their coefficients: `column ≈ Σ coef · other`.
    pub on: Vec<(String, f64)>,
}

impl std::fmt::Display for Dependency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} =", self.column)?;
        if self.on.is_empty() {
            // every coefficient was negligible: the column is zero to round-off
            return write!(f, " 0 (to round-off)");
        }
        for (i, (name, c)) in self.on.iter().enumerate() {
            let sign = if *c < 0.0 {
                "-"
            } else if i == 0 {
                ""
            } else {
                "+"
            };
            write!(f, " {sign}{}·{name}", fmt_g(c.abs()))?;
        }
        Ok(())
    }
}

fn fmt_g(v: f64) -> String {
    if !(1e-4..1e9).contains(&v) {
        format!("{v:.6e}")
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round())
    } else {
        format!("{v:.6}")
    }
}

/// Result alias.
pub type Result<T, E = AnalysisError> = std::result::Result<T, E>;

/// True for cells read as missing: empty, `NA`, `NaN`, `null`, `None` (case-insensitive);
/// [`crate::design::is_missing`].
pub(crate) fn missing_cell(cell: &str) -> bool {
    matches!(
        cell.trim().to_ascii_lowercase().as_str(),
        "" | "na" | "nan" | "null" | "none"
    )
}

/// What a non-numeric cell that reads as missing can do about it.
fn missing_hint(value: &str) -> &'static str {
    if missing_cell(value) {
        " (a missing cell: leave such rows out with --drop-missing, DesignSpec::drop_missing)"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn non_numeric(value: &str) -> String {
        AnalysisError::NonNumeric {
            origin: "features.csv".into(),
            column: "cc".into(),
            row: 3,
            value: value.into(),
        }
        .to_string()
    }

    #[test]
    fn a_missing_cell_names_drop_missing() {
        for v in ["", "NA", "nan", " None "] {
            assert!(non_numeric(v).contains("--drop-missing"), "{v:?}");
        }
        assert!(!non_numeric("x1").contains("--drop-missing"));
    }
}
