//! Values a profile does not measure, and the notes saying so.

use codethread_lang::Lang;

use crate::profile::Profile;

/// The (profile, language, metric) values a profile does not measure, and
/// why: either the record holds `null` (the paper used only lizard's CCN
/// for C++, Ruby and PHP) or the reference tool reports a constant
/// (rust-code-analysis 0.0.25 gives every Java function cognitive 0; the
/// record keeps the tool's 0, as the parity tests require, with a note).
/// `report.md` lists them; the canonical profile measures every metric of
/// every language.
pub const UNMEASURED: &[(Profile, Lang, &str, &str)] = &[
    (
        Profile::Paper,
        Lang::Java,
        "cognitive",
        JAVA_COGNITIVE_CONSTANT,
    ),
    (Profile::Paper, Lang::Cpp, "cognitive", LIZARD_ONLY),
    (Profile::Paper, Lang::Cpp, "halstead", LIZARD_ONLY),
    (Profile::Paper, Lang::Cpp, "lloc", LIZARD_ONLY),
    (Profile::Paper, Lang::Ruby, "cognitive", LIZARD_ONLY),
    (Profile::Paper, Lang::Ruby, "halstead", LIZARD_ONLY),
    (Profile::Paper, Lang::Ruby, "lloc", LIZARD_ONLY),
    (Profile::Paper, Lang::Php, "cognitive", LIZARD_ONLY),
    (Profile::Paper, Lang::Php, "halstead", LIZARD_ONLY),
    (Profile::Paper, Lang::Php, "lloc", LIZARD_ONLY),
];

const LIZARD_ONLY: &str = "null: the paper used lizard CCN only for this language";

/// The entries of [`UNMEASURED`] for `profile`: (language, metric, why).
pub fn unmeasured(profile: Profile) -> Vec<(Lang, &'static str, &'static str)> {
    UNMEASURED
        .iter()
        .filter(|(p, ..)| *p == profile)
        .map(|&(_, l, m, why)| (l, m, why))
        .collect()
}

/// Notes on every record of a (profile, language) whose value of some
/// metric is a constant of the reference tool ([`UNMEASURED`] entries that
/// are not nulls; the nulls carry their own note).
pub(crate) fn constant_notes(profile: Profile, lang: Lang) -> Vec<String> {
    UNMEASURED
        .iter()
        .filter(|(p, l, _, why)| *p == profile && *l == lang && *why != LIZARD_ONLY)
        .map(|(.., why)| (*why).to_string())
        .collect()
}

/// The note on every Java record of the paper profile.
pub const JAVA_COGNITIVE_CONSTANT: &str = "cognitive is a constant 0, not a measurement: rust-code-analysis 0.0.25 has no Java cognitive rules";
