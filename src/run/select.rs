//! Choosing which loaded fixtures a run covers: `--filter` globs over
//! fixture ids and `--partition K/N` shards.

use crate::error::SetupError;
use crate::fixture::Corpus;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// The cases a run covers.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    globs: Option<GlobSet>,
}

impl Selection {
    /// Builds a selection from `--filter` globs (matched against `suite/name`;
    /// `*` also crosses `/`). No globs selects everything.
    pub fn new(filters: &[String]) -> Result<Self, SetupError> {
        if filters.is_empty() {
            return Ok(Selection { globs: None });
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
        Ok(Selection { globs: Some(set) })
    }

    /// Whether the fixture id is selected.
    pub fn matches(&self, id: &str) -> bool {
        self.globs.as_ref().is_none_or(|set| set.is_match(id))
    }
}

/// Indexes of the corpus fixtures the selection covers, in corpus order.
pub fn select(corpus: &Corpus, selection: &Selection) -> Vec<usize> {
    corpus.fixtures.iter().enumerate().filter(|(_, f)| selection.matches(&f.id)).map(|(i, _)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_ids_across_the_slash() {
        let selection = Selection::new(&["chat/claude-*".to_owned(), "*pagination*".to_owned()]).unwrap();
        assert!(selection.matches("chat/claude-assistant-text"));
        assert!(selection.matches("pagination/fetch-older-before-cursor"));
        assert!(!selection.matches("sse/team-state-null-clear"));
        assert!(Selection::new(&[]).unwrap().matches("anything"));
        assert!(Selection::new(&["[".to_owned()]).is_err());
    }
}
