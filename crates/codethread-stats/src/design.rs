//! Tabular input (CSV) and design matrices for regression.
//!
//! A [`Frame`] holds the raw cells of a CSV file, column by column; [`DesignSpec`] says which
//! column is the binary outcome, which regressors are categorical (dummy-coded drop-first, levels
//! in sorted order, named `column[level]`) and whether continuous regressors are standardized;
//! [`Frame::design`] turns both into a [`Design`]: a row-major `n × k` matrix with `const` first.

use crate::error::{AnalysisError, Result};
use std::collections::BTreeSet;
use std::path::Path;

/// Raw cells of a delimited table, stored column by column.
#[derive(Debug, Clone)]
pub struct Frame {
    origin: String,
    names: Vec<String>,
    /// Column index by name (one hash lookup per name: a design of 100k
    /// columns is not quadratic).
    lookup: std::collections::HashMap<String, usize>,
    columns: Vec<Vec<String>>,
    nrows: usize,
}

fn lookup_of(names: &[String]) -> std::collections::HashMap<String, usize> {
    let mut m = std::collections::HashMap::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        m.entry(n.clone()).or_insert(i);
    }
    m
}

impl Frame {
    /// Reads a CSV file with a header row.
    pub fn from_csv_path(path: &Path, limits: codethread_io::SourceLimits) -> Result<Frame> {
        let bytes = crate::input::read(path, limits)?;
        Frame::from_csv_bytes(&path.display().to_string(), &bytes)
    }

    /// Parses CSV bytes (header row first). `origin` names the source in errors.
    /// CRLF line ends, quoted cells and a UTF-8 BOM are accepted; non-UTF-8 bytes in cells are
    /// replaced (they can only matter for categorical levels).
    pub fn from_csv_bytes(origin: &str, bytes: &[u8]) -> Result<Frame> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .from_reader(bytes);
        let headers = rdr.byte_headers().map_err(|e| AnalysisError::Csv {
            origin: origin.to_string(),
            row: 0,
            message: e.to_string(),
        })?;
        let names: Vec<String> = headers
            .iter()
            .map(|h| String::from_utf8_lossy(h).trim().to_string())
            .collect();
        if names.is_empty() || (names.len() == 1 && names[0].is_empty()) {
            return Err(AnalysisError::Empty {
                origin: origin.to_string(),
            });
        }
        let mut seen = BTreeSet::new();
        for n in &names {
            if !seen.insert(n.clone()) {
                return Err(AnalysisError::Csv {
                    origin: origin.to_string(),
                    row: 0,
                    message: format!("duplicate column name {n:?}"),
                });
            }
        }
        let mut columns: Vec<Vec<String>> = vec![Vec::new(); names.len()];
        let mut nrows = 0usize;
        for (i, rec) in rdr.byte_records().enumerate() {
            let rec = rec.map_err(|e| AnalysisError::Csv {
                origin: origin.to_string(),
                row: i + 1,
                message: e.to_string(),
            })?;
            if rec.len() == 1 && rec.get(0).is_some_and(|c| c.is_empty()) && names.len() > 1 {
                continue; // blank line
            }
            for (c, cell) in rec.iter().enumerate() {
                columns[c].push(String::from_utf8_lossy(cell).trim().to_string());
            }
            nrows += 1;
        }
        if nrows == 0 {
            return Err(AnalysisError::Empty {
                origin: origin.to_string(),
            });
        }
        Ok(Frame {
            origin: origin.to_string(),
            lookup: lookup_of(&names),
            names,
            columns,
            nrows,
        })
    }

    /// Builds a frame from already-parsed numeric columns (used by the feature builder).
    pub fn from_numeric(origin: &str, cols: Vec<(String, Vec<f64>)>) -> Result<Frame> {
        let nrows = cols.first().map(|c| c.1.len()).unwrap_or(0);
        if nrows == 0 {
            return Err(AnalysisError::Empty {
                origin: origin.to_string(),
            });
        }
        let mut names = Vec::new();
        let mut columns = Vec::new();
        for (n, v) in cols {
            if v.len() != nrows {
                return Err(AnalysisError::Invalid {
                    origin: origin.to_string(),
                    message: format!("column {n:?} has {} rows, expected {nrows}", v.len()),
                });
            }
            names.push(n);
            columns.push(v.iter().map(|x| format!("{x:?}")).collect());
        }
        Ok(Frame {
            origin: origin.to_string(),
            lookup: lookup_of(&names),
            names,
            columns,
            nrows,
        })
    }

    /// Column names in file order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Number of data rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Where the frame came from (file name).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    fn index(&self, name: &str) -> Result<usize> {
        self.lookup
            .get(name)
            .copied()
            .ok_or_else(|| AnalysisError::MissingColumn {
                origin: self.origin.clone(),
                column: name.to_string(),
                available: self.names.join(", "),
            })
    }

    /// The raw cells of a column.
    pub fn cells(&self, name: &str) -> Result<&[String]> {
        Ok(&self.columns[self.index(name)?])
    }

    /// A column parsed as finite `f64`; errors name the row and cell.
    pub fn numeric(&self, name: &str) -> Result<Vec<f64>> {
        let cells = self.cells(name)?;
        let mut out = Vec::with_capacity(cells.len());
        for (i, c) in cells.iter().enumerate() {
            let v: f64 = match c.parse() {
                Ok(v) => v,
                Err(_) => match c.to_ascii_lowercase().as_str() {
                    "true" => 1.0,
                    "false" => 0.0,
                    _ => {
                        return Err(AnalysisError::NonNumeric {
                            origin: self.origin.clone(),
                            column: name.to_string(),
                            row: i + 1,
                            value: c.clone(),
                        })
                    }
                },
            };
            if !v.is_finite() {
                return Err(AnalysisError::NonFinite {
                    origin: self.origin.clone(),
                    column: name.to_string(),
                    row: i + 1,
                    value: v,
                });
            }
            out.push(v);
        }
        Ok(out)
    }

    /// Builds the design matrix described by `spec`.
    pub fn design(&self, spec: &DesignSpec) -> Result<Design> {
        if spec.drop_missing {
            let mut used: Vec<&str> = vec![spec.outcome.as_str()];
            match &spec.columns {
                Some(c) => used.extend(c.iter().map(String::as_str)),
                None => used.extend(self.names.iter().map(String::as_str)),
            }
            let mut idx = Vec::new();
            for u in &used {
                idx.push(self.index(u)?);
            }
            let keep: Vec<usize> = (0..self.nrows)
                .filter(|&r| !idx.iter().any(|&c| is_missing(&self.columns[c][r])))
                .collect();
            let dropped: Vec<usize> = (0..self.nrows)
                .filter(|r| keep.binary_search(r).is_err())
                .map(|r| r + 1)
                .collect();
            if !dropped.is_empty() {
                if keep.is_empty() {
                    return Err(AnalysisError::Empty {
                        origin: format!("{} (every row has a missing value)", self.origin),
                    });
                }
                let sub = Frame {
                    origin: self.origin.clone(),
                    names: self.names.clone(),
                    lookup: self.lookup.clone(),
                    columns: self
                        .columns
                        .iter()
                        .map(|c| keep.iter().map(|&r| c[r].clone()).collect())
                        .collect(),
                    nrows: keep.len(),
                };
                let inner = DesignSpec {
                    drop_missing: false,
                    ..spec.clone()
                };
                let mut d = sub.design(&inner)?;
                d.dropped_rows = dropped;
                return Ok(d);
            }
        }
        let y = self.numeric(&spec.outcome)?;
        for (i, &v) in y.iter().enumerate() {
            if v != 0.0 && v != 1.0 {
                return Err(AnalysisError::NonBinaryOutcome {
                    origin: self.origin.clone(),
                    column: spec.outcome.clone(),
                    row: i + 1,
                    value: v,
                });
            }
        }
        for c in &spec.categorical {
            self.index(c)?;
        }
        let categorical: BTreeSet<&str> = spec.categorical.iter().map(String::as_str).collect();
        let regressors: Vec<String> = match &spec.columns {
            Some(cols) => {
                for c in cols {
                    self.index(c)?;
                }
                cols.clone()
            }
            None => self
                .names
                .iter()
                .filter(|n| **n != spec.outcome)
                .cloned()
                .collect(),
        };
        let mut names = vec!["const".to_string()];
        let mut cols: Vec<Vec<f64>> = vec![vec![1.0; self.nrows]];
        let mut kinds = vec![ColumnKind::Constant];
        for r in &regressors {
            if categorical.contains(r.as_str()) {
                let cells = self.cells(r)?;
                for (level, col) in dummy_code(cells) {
                    names.push(format!("{r}[{level}]"));
                    cols.push(col);
                    kinds.push(ColumnKind::Dummy);
                }
            } else {
                names.push(r.clone());
                cols.push(self.numeric(r)?);
                kinds.push(ColumnKind::Continuous);
            }
        }
        let mut scaling = Vec::new();
        if spec.standardize {
            for (j, col) in cols.iter_mut().enumerate() {
                if kinds[j] != ColumnKind::Continuous {
                    continue;
                }
                let n = col.len() as f64;
                let mean = col.iter().sum::<f64>() / n;
                let var = col.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
                let sd = var.sqrt();
                if sd > 0.0 {
                    for v in col.iter_mut() {
                        *v = (*v - mean) / sd;
                    }
                    scaling.push(Scaling {
                        column: names[j].clone(),
                        mean,
                        sd,
                    });
                }
            }
        }
        let k = cols.len();
        let mut x = vec![0.0; self.nrows * k];
        for (j, col) in cols.iter().enumerate() {
            for (i, v) in col.iter().enumerate() {
                x[i * k + j] = *v;
            }
        }
        Design::new(names, x, y, spec.outcome.clone()).map(|mut d| {
            d.scaling = scaling;
            d.kinds = kinds;
            d
        })
    }
}

/// True for cells treated as missing by [`DesignSpec::drop_missing`]: empty, `NA`, `NaN`,
/// `null`, `None` (case-insensitive).
pub fn is_missing(cell: &str) -> bool {
    crate::error::missing_cell(cell)
}

/// How a design column was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ColumnKind {
    /// The intercept column of ones.
    Constant,
    /// A numeric column taken from the input.
    Continuous,
    /// A 0/1 dummy of a categorical column.
    Dummy,
}

/// The mean and standard deviation used to standardize a column.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Scaling {
    /// Column name.
    pub column: String,
    /// Sample mean subtracted.
    pub mean: f64,
    /// Sample standard deviation (ddof = 1) divided by.
    pub sd: f64,
}

/// Dummy-codes a categorical column drop-first: levels sorted (numerically when every level is
/// a number, else by string), the first level is the reference.
pub fn dummy_code(cells: &[String]) -> Vec<(String, Vec<f64>)> {
    let mut levels: Vec<String> = cells
        .iter()
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let numeric: Option<Vec<f64>> = levels.iter().map(|l| l.parse::<f64>().ok()).collect();
    if let Some(nums) = numeric {
        let mut pairs: Vec<(f64, String)> = nums.into_iter().zip(levels).collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        levels = pairs.into_iter().map(|p| p.1).collect();
    }
    levels
        .iter()
        .skip(1)
        .map(|l| {
            (
                l.clone(),
                cells
                    .iter()
                    .map(|c| if c == l { 1.0 } else { 0.0 })
                    .collect(),
            )
        })
        .collect()
}

/// What to build from a [`Frame`].
#[derive(Debug, Clone, Default)]
pub struct DesignSpec {
    /// The 0/1 outcome column.
    pub outcome: String,
    /// Regressor columns in model order; `None` = every column except the outcome, in file order.
    pub columns: Option<Vec<String>>,
    /// Columns to dummy-code (drop-first, sorted levels).
    pub categorical: Vec<String>,
    /// Standardize continuous regressors to mean 0, sd 1 (dummies and `const` untouched).
    pub standardize: bool,
    /// Drop rows with a missing cell (see [`is_missing`]) in the outcome or a used column instead
    /// of failing; the dropped data rows are listed in [`Design::dropped_rows`].
    pub drop_missing: bool,
}

/// A design matrix with a binary outcome: row-major `x` (`nobs × k`), `const` first.
#[derive(Debug, Clone)]
pub struct Design {
    /// Column names, `const` first.
    pub names: Vec<String>,
    /// Row-major values, `nobs * names.len()`.
    pub x: Vec<f64>,
    /// Outcome (0.0 / 1.0).
    pub y: Vec<f64>,
    /// Name of the outcome column.
    pub outcome: String,
    /// Standardization applied (empty when none).
    pub scaling: Vec<Scaling>,
    /// Kind of each column.
    pub kinds: Vec<ColumnKind>,
    /// 1-based data rows left out by [`DesignSpec::drop_missing`].
    pub dropped_rows: Vec<usize>,
}

impl Design {
    /// Checks shapes and values: finite `x`, binary `y`, both outcomes present.
    pub fn new(names: Vec<String>, x: Vec<f64>, y: Vec<f64>, outcome: String) -> Result<Design> {
        let k = names.len();
        let origin = "<design>".to_string();
        if y.is_empty() {
            return Err(AnalysisError::Empty { origin });
        }
        let mut seen = std::collections::HashSet::with_capacity(k);
        for (j, n) in names.iter().enumerate() {
            if !seen.insert(n.as_str()) {
                let message = if n == "const" {
                    format!(
                        "column {j} is named \"const\", the name of the intercept: rename the \
                         column (or leave it out with --exclude)"
                    )
                } else {
                    format!(
                        "two columns are named {n:?} (a dummy `column[level]` can meet a \
                         column of that name): rename one"
                    )
                };
                return Err(AnalysisError::Invalid { origin, message });
            }
        }
        if k == 0 || x.len() != y.len() * k {
            return Err(AnalysisError::Invalid {
                origin,
                message: format!(
                    "x has {} values, expected {} rows × {} columns",
                    x.len(),
                    y.len(),
                    k
                ),
            });
        }
        for (idx, v) in x.iter().enumerate() {
            if !v.is_finite() {
                return Err(AnalysisError::NonFinite {
                    origin,
                    column: names[idx % k].clone(),
                    row: idx / k + 1,
                    value: *v,
                });
            }
        }
        let mut ones = 0usize;
        for (i, v) in y.iter().enumerate() {
            if *v == 1.0 {
                ones += 1;
            } else if *v != 0.0 {
                return Err(AnalysisError::NonBinaryOutcome {
                    origin,
                    column: outcome,
                    row: i + 1,
                    value: *v,
                });
            }
        }
        if ones == 0 || ones == y.len() {
            return Err(AnalysisError::ConstantOutcome {
                column: outcome,
                value: u8::from(ones > 0),
            });
        }
        let kinds = names
            .iter()
            .map(|n| {
                if n == "const" {
                    ColumnKind::Constant
                } else {
                    ColumnKind::Continuous
                }
            })
            .collect();
        Ok(Design {
            names,
            x,
            y,
            outcome,
            scaling: Vec::new(),
            kinds,
            dropped_rows: Vec::new(),
        })
    }

    /// Number of observations.
    pub fn nobs(&self) -> usize {
        self.y.len()
    }

    /// Number of columns (parameters), including `const`.
    pub fn k(&self) -> usize {
        self.names.len()
    }

    /// Index of the intercept column, if any.
    pub fn const_index(&self) -> Option<usize> {
        self.kinds.iter().position(|k| *k == ColumnKind::Constant)
    }
}
