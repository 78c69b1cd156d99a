//! lizard 1.24.3: the paper's tool for Go's cyclomatic complexity (CCN) and
//! LLOC (NLOC), read from the tree in token mode; and for C++, Ruby and PHP,
//! whose functions, names and CCN come from lizard's own token reader
//! (`codethread_lizard`, driven by its `tables`). Go's cognitive and
//! Halstead values are [`super::gocognit`]'s and [`super::go_halstead`]'s.

pub mod cyclomatic;
pub mod functions;
pub mod lloc;
