//! codethread-metrics (work in progress).
