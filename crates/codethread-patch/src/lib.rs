//! codethread-patch (work in progress).
