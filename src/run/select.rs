//! Choosing which loaded fixtures a run covers: `--filter` globs over
//! fixture ids and `--partition K/N` shards.
//!
//! A shard is chosen by a fixed hash of the fixture id (64-bit FNV-1a over
//! its UTF-8 bytes), never by position or by std's randomly keyed hasher:
//! every machine puts a fixture in the same shard, and adding a fixture does
//! not move the others.

use crate::error::SetupError;
use crate::fixture::Corpus;
use crate::report::{Partition, SelectionSummary};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use std::path::PathBuf;

const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The cases a run covers.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    globs: Option<GlobSet>,
    partition: Option<Partition>,
}

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a_64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET_BASIS, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME))
}

/// The 1-based shard of `count` that fixture `id` belongs to.
pub fn shard_of(id: &str, count: u32) -> u32 {
    let count = count.max(1);
    // The remainder is below `count`, so it fits in u32.
    (fnv1a_64(id.as_bytes()) % u64::from(count)) as u32 + 1
}

/// Parses `K/N` (1 <= K <= N).
pub fn parse_partition(text: &str) -> Result<Partition, SetupError> {
    let bad = |why: &str| SetupError::Usage(format!("invalid --partition `{text}`: {why} (expected K/N, e.g. 2/3)"));
    let (index, count) = text.trim().split_once('/').ok_or_else(|| bad("no `/`"))?;
    let index: u32 = index.trim().parse().map_err(|_| bad("K is not a whole number"))?;
    let count: u32 = count.trim().parse().map_err(|_| bad("N is not a whole number"))?;
    if count == 0 || index == 0 || index > count {
        return Err(bad("K must be between 1 and N"));
    }
    Ok(Partition { index, count })
}

impl Selection {
    /// Builds a selection from `--filter` globs (matched against `suite/name`;
    /// `*` also crosses `/`). No globs selects everything.
    pub fn new(filters: &[String]) -> Result<Self, SetupError> {
        if filters.is_empty() {
            return Ok(Selection::default());
        }
        let mut builder = GlobSetBuilder::new();
        for filter in filters {
            let glob = GlobBuilder::new(filter)
                .literal_separator(false)
                .build()
                .map_err(|err| SetupError::BadFilter { glob: filter.clone(), message: err.kind().to_string() })?;
            builder.add(glob);
        }
        let set = builder
            .build()
            .map_err(|err| SetupError::BadFilter { glob: filters.join(" "), message: err.to_string() })?;
        Ok(Selection { globs: Some(set), partition: None })
    }

    /// Restricts the selection to one shard.
    pub fn with_partition(mut self, partition: Option<Partition>) -> Self {
        self.partition = partition;
        self
    }

    /// Whether the fixture id is selected.
    pub fn matches(&self, id: &str) -> bool {
        self.globs.as_ref().is_none_or(|set| set.is_match(id)) && in_partition(id, self.partition)
    }
}

/// Whether fixture `id` belongs to `partition` (every fixture belongs to no
/// partition at all).
pub fn in_partition(id: &str, partition: Option<Partition>) -> bool {
    partition.is_none_or(|p| shard_of(id, p.count) == p.index)
}

/// What a run selected, for its report: `paths` as given (made canonical
/// here), the `--suite` and `--filter` values, the ids of the whole
/// selection before any partition, and how many of them this run's share
/// covers.
pub fn summarize_selection(
    paths: &[PathBuf],
    suites: &[String],
    filters: &[String],
    whole: &[&str],
    selected: usize,
) -> SelectionSummary {
    let sorted = |values: &[String]| -> Vec<String> {
        let mut values = values.to_vec();
        values.sort();
        values.dedup();
        values
    };
    let roots = paths
        .iter()
        .map(|path| std::fs::canonicalize(path).unwrap_or_else(|_| path.clone()).display().to_string())
        .collect();
    let mut ids = whole.to_vec();
    ids.sort_unstable();
    let digest = ids.iter().fold(FNV_OFFSET_BASIS, |hash, id| {
        id.bytes()
            .chain(std::iter::once(b'\n'))
            .fold(hash, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME))
    });
    SelectionSummary {
        roots,
        suites: sorted(suites),
        filters: sorted(filters),
        fixtures: whole.len(),
        selected,
        digest: format!("{digest:016x}"),
    }
}

/// Indexes of the corpus fixtures the selection covers, in corpus order.
pub fn select(corpus: &Corpus, selection: &Selection) -> Vec<usize> {
    corpus.fixtures.iter().enumerate().filter(|(_, f)| selection.matches(&f.id)).map(|(i, _)| i).collect()
}

/// Keeps the fixtures of `ids` (indexed by `indexes`) whose suite
/// `declared` accepts, for a run whose implementation declared only some
/// suites and whose user named none: the others could only be
/// `unsupported`. Returns the suites left out with their fixture counts, in
/// order of appearance. When no fixture would be left, keeps them all and
/// returns nothing: then every case says why it is unsupported.
pub fn keep_declared_suites(
    ids: &[String],
    indexes: &mut Vec<usize>,
    declared: impl Fn(&str) -> bool,
) -> Vec<(String, usize)> {
    let suite_of = |index: usize| ids[index].split_once('/').map_or(ids[index].as_str(), |(suite, _)| suite);
    if !indexes.iter().any(|&index| declared(suite_of(index))) {
        return Vec::new();
    }
    let mut left_out: Vec<(String, usize)> = Vec::new();
    indexes.retain(|&index| {
        let suite = suite_of(index);
        if declared(suite) {
            return true;
        }
        match left_out.iter_mut().find(|(name, _)| name == suite) {
            Some((_, count)) => *count += 1,
            None => left_out.push((suite.to_owned(), 1)),
        }
        false
    });
    left_out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_declared_suites_are_kept_unless_none_would_be() {
        let ids: Vec<String> =
            ["chat/a", "sse/b", "chat/c", "pagination/d", "sse/e"].iter().map(|id| (*id).to_owned()).collect();
        let mut indexes = vec![0, 1, 2, 3, 4];
        assert_eq!(
            keep_declared_suites(&ids, &mut indexes, |suite| suite == "chat"),
            [("sse".to_owned(), 2), ("pagination".to_owned(), 1)]
        );
        assert_eq!(indexes, [0, 2]);
        let mut indexes = vec![1, 3];
        assert!(keep_declared_suites(&ids, &mut indexes, |suite| suite == "chat").is_empty());
        assert_eq!(indexes, [1, 3], "nothing declared is selected: every case stays, to say it is unsupported");
    }

    #[test]
    fn a_selection_digest_depends_on_the_ids_alone() {
        let summary = |ids: &[&str]| summarize_selection(&[PathBuf::from("fixtures")], &[], &[], ids, ids.len());
        let one = summary(&["chat/a", "sse/b"]);
        assert_eq!(one.digest, summary(&["sse/b", "chat/a"]).digest, "order does not matter");
        assert_ne!(one.digest, summary(&["chat/a"]).digest);
        assert_ne!(one.digest, summary(&["chat/as", "se/b"]).digest, "ids are separated");
        assert_eq!((one.fixtures, one.selected), (2, 2));
        let named = summarize_selection(&[], &["sse".into(), "chat".into(), "sse".into()], &[], &[], 0);
        assert_eq!(named.suites, ["chat", "sse"]);
    }

    #[test]
    fn globs_match_ids_across_the_slash() {
        let selection = Selection::new(&["chat/claude-*".to_owned(), "*pagination*".to_owned()]).unwrap();
        assert!(selection.matches("chat/claude-assistant-text"));
        assert!(selection.matches("pagination/fetch-older-before-cursor"));
        assert!(!selection.matches("sse/team-state-null-clear"));
        assert!(Selection::new(&[]).unwrap().matches("anything"));
        assert!(Selection::new(&["[".to_owned()]).is_err());
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        assert_eq!(fnv1a_64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a_64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a_64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn shards_cover_every_id_exactly_once() {
        let ids: Vec<String> = (0..300).map(|i| format!("chat/fixture-{i}")).collect();
        let mut sizes = [0usize; 3];
        for id in &ids {
            let shard = shard_of(id, 3);
            let selected: Vec<u32> = (1..=3)
                .filter(|&k| Selection::default().with_partition(Some(Partition { index: k, count: 3 })).matches(id))
                .collect();
            assert_eq!(selected, [shard]);
            sizes[(shard - 1) as usize] += 1;
        }
        // A fair hash spreads 300 ids roughly evenly.
        assert!(sizes.iter().all(|&n| (70..=130).contains(&n)), "{sizes:?}");
        // Stable across runs and machines: pinned values.
        assert_eq!(shard_of("chat/user-plain-text", 3), shard_of("chat/user-plain-text", 3));
        assert_eq!(shard_of("a", 7), (0xaf63_dc4c_8601_ec8c_u64 % 7) as u32 + 1);
    }

    #[test]
    fn partition_syntax_is_checked() {
        assert_eq!(parse_partition("2/3").unwrap(), Partition { index: 2, count: 3 });
        for bad in ["0/3", "4/3", "1/0", "x/3", "3", "1/-2"] {
            assert!(parse_partition(bad).is_err(), "{bad}");
        }
    }
}
