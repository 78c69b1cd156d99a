//! codethread-analysis (work in progress).
