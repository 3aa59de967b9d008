//! Finding a rule's matches exactly as [`regex::Regex::captures_at`] finds
//! them, without its slow path on text that is not ASCII.
//!
//! A pattern with a Unicode word boundary (`\b`) cannot run on the regex
//! crate's lazy DFA once the text holds a non-ASCII byte: the search falls
//! back to the PikeVM for the rest of the text, some fifty times slower. A
//! document holding one `µ` or `–` (a description's `1–200`) pays that for
//! every such rule over all of it.
//!
//! A [`Finder`] keeps the pattern as it is (`exact`) and the same pattern
//! with its word boundaries removed (`relaxed`), which the DFA runs at full
//! speed on any text. Removing an assertion only lets more text match, so
//! every match of `exact` is a match of `relaxed` with the same span: the
//! leftmost match of `exact` cannot start before the leftmost match of
//! `relaxed`. The search therefore asks `relaxed` where its leftmost match
//! starts, and `exact`, anchored there (the word boundaries looking at the
//! whole text around it), whether it matches from that very position; if
//! not, no match of `exact` starts there, and the search goes on from the
//! next character. The result is the leftmost-first match `exact` finds
//! unanchored, with the same groups. After [`MAX_PROBES`] refused
//! positions in one search the unanchored search of `exact` takes over, so a
//! long run of candidates costs no more than the old search did.

use regex_automata::meta::{self, Regex};
use regex_automata::util::captures::Captures;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{self, Hir, HirKind, Look};
use std::ops::Range;

/// Candidate positions refused in one search before the plain unanchored
/// search of the exact pattern takes over.
pub const MAX_PROBES: usize = 64;

/// One pattern, searched as described in the module docs.
#[derive(Clone, Debug)]
pub struct Finder {
    exact: Regex,
    relaxed: Option<Regex>,
    /// The pattern without its word boundaries (itself when it has none):
    /// what [`super::screen::Screen`] searches for.
    loose: Hir,
}

/// A match: the whole span and each group's span (`None` when the group
/// took no part).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    groups: Vec<Option<Range<usize>>>,
}

impl Found {
    /// The span of group `index` (0 is the whole match).
    pub fn group(&self, index: usize) -> Option<Range<usize>> {
        self.groups.get(index).cloned().flatten()
    }
}

/// Why a pattern does not compile.
#[derive(Clone, Debug)]
pub struct BuildError(pub String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The configuration [`regex::Regex::new`] uses.
fn config() -> meta::Config {
    meta::Config::new()
        .nfa_size_limit(Some(10 * (1 << 20)))
        .hybrid_cache_capacity(2 * (1 << 20))
        .match_kind(MatchKind::LeftmostFirst)
        .utf8_empty(true)
}

impl Finder {
    /// Compiles `pattern` (already known to compile with the regex crate).
    pub fn new(pattern: &str) -> Result<Finder, BuildError> {
        let hir = syntax::parse_with(pattern, &syntax::Config::new().utf8(true))
            .map_err(|err| BuildError(err.to_string()))?;
        let build = |hir: &Hir| {
            meta::Builder::new().configure(config()).build_from_hir(hir).map_err(|err| BuildError(err.to_string()))
        };
        let exact = build(&hir)?;
        let loose = without_word_boundaries(&hir);
        let relaxed = if has_unicode_word_boundary(&hir) { Some(build(&loose)?) } else { None };
        Ok(Finder { exact, relaxed, loose })
    }

    /// The pattern with every word-boundary assertion removed: it matches
    /// wherever the pattern does (and maybe elsewhere).
    pub fn loose_pattern(&self) -> &Hir {
        &self.loose
    }

    /// Room for the groups of one match (see [`Finder::search_at`]).
    pub fn create_captures(&self) -> Captures {
        self.exact.create_captures()
    }

    /// The leftmost-first match starting at or after byte `at` of `text`.
    pub fn captures_at(&self, text: &str, at: usize) -> Option<Found> {
        let mut captures = self.create_captures();
        self.search_at(text, at, &mut captures);
        found(&captures)
    }

    /// [`Finder::captures_at`] into `captures` (made by
    /// [`Finder::create_captures`]), which then holds the match if any:
    /// one allocation for a whole scan of a text.
    pub fn search_at(&self, text: &str, at: usize, captures: &mut Captures) {
        let Some(relaxed) = &self.relaxed else {
            self.exact.search_captures(&Input::new(text).span(at..text.len()), captures);
            return;
        };
        let mut from = at;
        for _ in 0..MAX_PROBES {
            let Some(candidate) = relaxed.search(&Input::new(text).span(from..text.len())) else {
                captures.set_pattern(None);
                return;
            };
            let start = candidate.start();
            let anchored = Input::new(text).span(start..text.len()).anchored(Anchored::Yes);
            self.exact.search_captures(&anchored, captures);
            if captures.is_match() {
                return;
            }
            // No match of `exact` starts at `start`: go on after it.
            from = next_char_boundary(text, start);
            if from > text.len() {
                captures.set_pattern(None);
                return;
            }
        }
        self.exact.search_captures(&Input::new(text).span(from..text.len()), captures);
    }
}

fn found(captures: &Captures) -> Option<Found> {
    if !captures.is_match() {
        return None;
    }
    let groups = (0..captures.group_len()).map(|index| captures.get_group(index).map(|span| span.range())).collect();
    Some(Found { groups })
}

fn next_char_boundary(text: &str, at: usize) -> usize {
    text.get(at..).and_then(|rest| rest.chars().next()).map_or(at + 1, |c| at + c.len_utf8())
}

fn is_unicode_word_look(look: Look) -> bool {
    matches!(
        look,
        Look::WordUnicode
            | Look::WordUnicodeNegate
            | Look::WordStartUnicode
            | Look::WordEndUnicode
            | Look::WordStartHalfUnicode
            | Look::WordEndHalfUnicode
    )
}

fn is_word_look(look: Look) -> bool {
    !matches!(look, Look::Start | Look::End | Look::StartLF | Look::EndLF | Look::StartCRLF | Look::EndCRLF)
}

fn has_unicode_word_boundary(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Look(look) => is_unicode_word_look(*look),
        HirKind::Repetition(repetition) => has_unicode_word_boundary(&repetition.sub),
        HirKind::Capture(capture) => has_unicode_word_boundary(&capture.sub),
        HirKind::Concat(items) | HirKind::Alternation(items) => items.iter().any(has_unicode_word_boundary),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) => false,
    }
}

/// The same pattern with every word-boundary assertion replaced by the
/// empty pattern (groups keep their numbers).
fn without_word_boundaries(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Look(look) if is_word_look(*look) => Hir::empty(),
        HirKind::Repetition(repetition) => Hir::repetition(hir::Repetition {
            min: repetition.min,
            max: repetition.max,
            greedy: repetition.greedy,
            sub: Box::new(without_word_boundaries(&repetition.sub)),
        }),
        HirKind::Capture(capture) => Hir::capture(hir::Capture {
            index: capture.index,
            name: capture.name.clone(),
            sub: Box::new(without_word_boundaries(&capture.sub)),
        }),
        HirKind::Concat(items) => Hir::concat(items.iter().map(without_word_boundaries).collect()),
        HirKind::Alternation(items) => Hir::alternation(items.iter().map(without_word_boundaries).collect()),
        _ => hir.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The groups of the match found from each position.
    type Matches = Vec<Vec<Option<Range<usize>>>>;

    /// Every match, as the regex crate's `captures_at` loop finds them and
    /// as the finder does.
    fn both(pattern: &str, text: &str) -> (Matches, Matches) {
        let regex = regex::Regex::new(pattern).unwrap_or_else(|err| panic!("{err}"));
        let finder = Finder::new(pattern).unwrap_or_else(|err| panic!("{err}"));
        let (mut plain, mut fast) = (Vec::new(), Vec::new());
        for at in 0..=text.len() {
            if !text.is_char_boundary(at) {
                continue;
            }
            plain.push(
                regex
                    .captures_at(text, at)
                    .map(|c| (0..c.len()).map(|i| c.get(i).map(|m| m.range())).collect())
                    .unwrap_or_default(),
            );
            fast.push(finder.captures_at(text, at).map(|f| f.groups).unwrap_or_default());
        }
        (plain, fast)
    }

    #[test]
    fn the_finder_finds_what_the_regex_crate_finds() {
        let texts = [
            "ématoken=abc123 and épassword: \"x\" µs",
            "x_password = 'hunter2' é-bob@corp.io bob@corp.ioé",
            "١4111111111111111 4111 1111 1111 1111é 12 4111111111111111",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaapassword=\"é\" token=1é",
            "",
            "ü",
        ];
        let patterns = [
            r#"(?i)(?:\b[A-Za-z0-9_.-]*?(?:password|token)|\b(?:[A-Za-z0-9_.-]*[_.-])?pass)["']?[ \t]*[:=][ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)'|([^\s"']+))"#,
            r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b",
            r"\b[0-9](?:[ -]?[0-9]){12,18}\b",
            r"(?:^|[^a-z])\bé",
            r"a+",
            r"\B",
        ];
        for pattern in patterns {
            for text in texts {
                let (plain, fast) = both(pattern, text);
                assert_eq!(plain, fast, "{pattern} on {text:?}");
            }
        }
    }
}
